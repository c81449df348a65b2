import type { FastifyBaseLogger } from "fastify";
import pLimit from "p-limit";
import type pg from "pg";
import { withTransaction, type Db } from "../../db/pool.js";
import { holdRun } from "../runs/failures.service.js";
import { recordRunFailures, type TriageSettings } from "./fingerprints.service.js";
import * as repo from "./pending.repo.js";

/*
 * Triage after the upload's commit (issue 34, docs/triage.md "When"). Fingerprinting and filing
 * a 100k-test run's failures during the upload, in its parse workers and its transaction, kept
 * its answer waiting (8-30% of a known-tests upload on 2 cores: docs/performance.md). Now the
 * upload only marks its run (migration 0223), and the server that stored it triages the run
 * right after the answer, reading its failures back. Whatever needs a run's groups (the gate,
 * the dialogs' groups, a notification, the HTML report) first waits for that run's triage, doing
 * it itself when nobody is (untilTriaged); a run whose server died before triaging it is found
 * by the sweep (triage.jobs.ts).
 */

/** What triaging a run needs. */
export interface TriageDeps {
  db: Db;
  settings: TriageSettings;
  log?: FastifyBaseLogger;
}

/** In the upload's transaction: the run waits for triage. Answers the upload's mark. */
export async function markForTriage(client: pg.ClientBase, runId: number): Promise<number> {
  return repo.markPending(client, runId);
}

/**
 * Triages a marked run in one transaction that holds its mark (a peer at it is waited for, or
 * left to it with `skipLocked`), then clears the mark it triaged. Answers whether it triaged.
 */
export async function triageMarked(
  deps: TriageDeps,
  runId: number,
  skipLocked = false,
): Promise<boolean> {
  return withTransaction(deps.db, async (client) => {
    // The run first, then its mark: an upload into the run holds the run and then marks it, and
    // the other order deadlocked the two (triage's row in triage_runs refers to the run).
    await holdRun(client, runId);
    const mark = await repo.lockPending(client, runId, skipLocked);
    if (mark === null) return false;
    await recordRunFailures(client, runId, deps.settings);
    await repo.clearPending(client, runId, mark);
    return true;
  });
}

/** Before reading a run's groups: its triage done, by this read if nobody is at it. */
export async function untilTriaged(deps: TriageDeps, runId: number): Promise<void> {
  if (await repo.isPending(deps.db.pool, runId)) await triageMarked(deps, runId);
}

/**
 * Before reading groups across runs (the Failures screen, a group's page): every marked run
 * triaged, so an acknowledged upload's failures are in them. Usually nothing is marked.
 */
export async function untilAllTriaged(deps: TriageDeps): Promise<void> {
  for (const runId of await repo.pendingRunIds(deps.db.pool, 0)) await triageMarked(deps, runId);
}

/**
 * This server's triage of the runs it stored, started after their commit, one run at a time
 * (two at once would only share the same two cores), each once `yieldTo` has settled (the
 * server's other work after an answer that a person waits for: the run's view). Closing drops
 * what has not started: those runs stay marked for the next read or the sweep.
 */
export class TriageAfterCommit {
  private readonly queue = pLimit(1);
  /** The run being triaged (one at a time). */
  private current: Promise<void> | undefined;

  constructor(
    private readonly deps: TriageDeps,
    private readonly yieldTo: () => Promise<void> = async () => undefined,
  ) {}

  start(runId: number): void {
    void this.queue(async () => {
      this.current = this.yieldTo()
        .then(() => triageMarked(this.deps, runId))
        .then(
          () => undefined,
          (error: unknown) => {
            this.deps.log?.warn(
              { err: error, runId },
              "triage: a stored run's triage failed; the next read or the sweep triages it",
            );
          },
        );
      await this.current;
      this.current = undefined;
    });
  }

  /** Waits for the run being triaged and forgets the rest (the server closes). */
  async close(): Promise<void> {
    this.queue.clearQueue();
    await this.current;
  }
}

/**
 * Triages the runs marked at least `olderThanMs` ago that no live server holds: the marks of a
 * server that died between its commit and their triage. Oldest first; answers how many.
 */
export async function sweepPending(deps: TriageDeps, olderThanMs: number): Promise<number> {
  let done = 0;
  for (const runId of await repo.pendingRunIds(deps.db.pool, olderThanMs)) {
    if (await triageMarked(deps, runId, true)) done++;
  }
  if (done > 0) deps.log?.info({ runs: done }, "triage: runs left marked were triaged");
  return done;
}
