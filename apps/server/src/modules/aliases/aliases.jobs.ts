import type pg from "pg";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/pool.js";
import { jobQueue, type Jobs } from "../../jobs/jobs.js";
import { suggestRenames, type NewTests } from "./scan.repo.js";

/** A stored run whose new tests are compared with the previous run of its job. */
export interface RenameSearch {
  runId: number;
  /** The upload transaction's time (tests.created_at of the tests it registered), as text. */
  createdAt: string;
  ids: number[] | null;
}

// A first upload of a large suite (100k new tests) reads the whole run: minutes at worst.
export const renameSearchQueue = jobQueue<RenameSearch>("aliases.suggest", {
  retryLimit: 3,
  expireInSeconds: 30 * 60,
});

/**
 * Queues the search in the upload's transaction (pg-boss' insert on the upload's connection):
 * the job exists if and only if the run committed, and a server that dies after COMMIT leaves it
 * to another. The search itself runs after COMMIT; the upload no longer pays for it.
 */
export async function queueRenameSearch(
  client: pg.PoolClient,
  jobs: Jobs,
  search: RenameSearch,
): Promise<void> {
  await jobs.send(renameSearchQueue, search, {
    db: { executeSql: (text, values) => client.query(text, values) },
  });
}

/**
 * Runs the searches. pg-boss gives a job to one server at a time; a job retried after its lease
 * ran out (a slow server still on it) is safe too: suggestRenames adds no pair twice.
 */
export async function startRenameSearch(
  jobs: Jobs,
  deps: { db: Db; log: FastifyBaseLogger },
): Promise<void> {
  // pg-boss waits its polling interval between two fetches: 1 s, a search a second per server.
  await jobs.work(
    renameSearchQueue,
    async (search) => {
      const added = await searchRenames(deps.db, search);
      if (added > 0) deps.log.info({ runId: search.runId, added }, "aliases: renames suggested");
    },
    { pollingIntervalSeconds: 1 },
  );
}

/** One job's work: the suggestions of one stored upload. Returns how many were added. */
export async function searchRenames(db: Db, search: RenameSearch): Promise<number> {
  const fresh: NewTests = { createdAt: search.createdAt, ids: search.ids };
  return suggestRenames(db.pool, search.runId, fresh);
}
