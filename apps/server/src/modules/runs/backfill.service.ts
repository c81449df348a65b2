import type pg from "pg";
import { withTransaction, type Db } from "../../db/pool.js";
import { runIdsAfter } from "./failures.service.js";

const PAGE = 200;

/** What a module's backfill does with the stored runs (triage, flaky). */
export interface StoredRunsPass {
  /** Which of `runIds` the module has read already (they are skipped). */
  done(client: pg.ClientBase, runIds: readonly number[]): Promise<Set<number>>;
  /** Reads one run, in its own transaction. */
  record(client: pg.ClientBase, runId: number): Promise<void>;
  /** Only runs up to this id. */
  untilRunId?: number;
}

/**
 * Walks every stored run (not load runs) in id order, the order ingest stored them, a page of
 * ids at a time, and records those the module has not read yet, each in its own transaction.
 * Returns how many it recorded.
 */
export async function recordUnreadRuns(db: Db, pass: StoredRunsPass): Promise<number> {
  const until = pass.untilRunId ?? Number.MAX_SAFE_INTEGER;
  let after = 0;
  let done = 0;
  for (;;) {
    const page = await withTransaction(db, async (client) => {
      const ids = await runIdsAfter(client, after, PAGE);
      const read = await pass.done(client, ids);
      return { ids, todo: ids.filter((id) => !read.has(id) && id <= until) };
    });
    for (const runId of page.todo) {
      await withTransaction(db, (client) => pass.record(client, runId));
      done++;
    }
    if (page.ids.length < PAGE) break;
    after = page.ids[page.ids.length - 1] ?? after;
  }
  return done;
}
