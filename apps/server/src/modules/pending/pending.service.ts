import type { FastifyBaseLogger } from "fastify";
import pLimit from "p-limit";
import type pg from "pg";
import { withTransaction, type Db } from "../../db/pool.js";
import { holdRun } from "../runs/failures.service.js";
import * as repo from "./pending.repo.js";

/*
 * A run's work after the commit that stored it (issues 34 and 36, docs/triage.md "When"). Work
 * another module derives from a stored run (triage's groups, flaky's windows) kept the upload's
 * answer waiting when done in its transaction. Now the upload only marks its run for each kind
 * (migration 0224), and the server that stored it does the work right after the answer. A read
 * that needs the work first waits for it, doing it itself when nobody is (untilDone); a run whose
 * server died before doing it is found by the sweep (pending.jobs.ts).
 */

export type { PendingKind } from "./pending.repo.js";

/** A module's work on a stored run. */
export interface PendingStep<T = never> {
  kind: repo.PendingKind;
  db: Db;
  log?: FastifyBaseLogger;
  /**
   * Does the work, in the transaction that holds the run's mark. `carried`: what the run's upload
   * handed over for it (flaky: the outcomes it wrote), given only while no later upload into the
   * run marked it again; without it the step reads the run.
   */
  work(client: pg.PoolClient, runId: number, carried: T | undefined): Promise<void>;
}

/** What an upload hands over to its own step: its mark, and the value for that mark only. */
export interface Carried<T> {
  mark: number;
  value: T;
}

/** In the upload's transaction: the run waits for the step. Answers the upload's mark. */
export function markPending(
  client: pg.ClientBase,
  kind: repo.PendingKind,
  runId: number,
): Promise<number> {
  return repo.markPending(client, kind, runId);
}

/**
 * Does a marked run's step in one transaction that holds its mark (a peer at it is waited for,
 * or left to it with `skipLocked`), then clears the mark it did. Answers whether it did.
 */
export async function doMarked<T>(
  step: PendingStep<T>,
  runId: number,
  options: { skipLocked?: boolean; carried?: Carried<T> } = {},
): Promise<boolean> {
  return withTransaction(step.db, async (client) => {
    // The run first, then its mark: an upload into the run holds the run and then marks it, and
    // the other order deadlocked the two (the steps' rows refer to the run).
    await holdRun(client, runId);
    const mark = await repo.lockPending(client, step.kind, runId, options.skipLocked);
    if (mark === null) return false;
    const carried = options.carried?.mark === mark ? options.carried.value : undefined;
    await step.work(client, runId, carried);
    await repo.clearPending(client, step.kind, runId, mark);
    return true;
  });
}

/** Before reading what the step derives from a run: its step done, by this read if need be. */
export async function untilDone<T>(step: PendingStep<T>, runId: number): Promise<void> {
  if (await repo.isPending(step.db.pool, step.kind, runId)) await doMarked(step, runId);
}

/**
 * Before reading what the step derives across runs: every marked run done, so an acknowledged
 * upload is in it. Usually nothing is marked.
 */
export async function untilAllDone<T>(step: PendingStep<T>): Promise<void> {
  for (const runId of await repo.pendingRunIds(step.db.pool, step.kind, 0)) {
    await doMarked(step, runId);
  }
}

/**
 * A module's backfill's `done` (runs/backfill.service.ts): the runs `read` says it has read, and
 * those marked for its step, which are left to the step.
 */
export function readOrMarked(
  kind: repo.PendingKind,
  read: (client: pg.ClientBase, runIds: readonly number[]) => Promise<Set<number>>,
) {
  return async (client: pg.ClientBase, runIds: readonly number[]): Promise<Set<number>> => {
    const done = await read(client, runIds);
    for (const runId of await repo.markedRunIds(client, kind, runIds)) done.add(runId);
    return done;
  };
}

/** Forgets every mark of a kind: its module derives everything again (the demo's recount). */
export function forgetPending(client: pg.ClientBase, kind: repo.PendingKind): Promise<void> {
  return repo.forgetPending(client, kind);
}

/**
 * Does the steps of the runs marked at least `olderThanMs` ago that no live server holds: the
 * marks of a server that died between its commit and their step. Oldest first; answers how many.
 */
export async function sweepPending<T>(step: PendingStep<T>, olderThanMs: number): Promise<number> {
  let done = 0;
  for (const runId of await repo.pendingRunIds(step.db.pool, step.kind, olderThanMs)) {
    if (await doMarked(step, runId, { skipLocked: true })) done++;
  }
  if (done > 0) step.log?.info({ runs: done, kind: step.kind }, "runs left marked were done");
  return done;
}

/**
 * This server's steps for the runs it stored, started after their commit, one at a time (two at
 * once would only share the same two cores), each once `yieldTo` has settled (the server's other
 * work after an answer that a person waits for: the run's view). Closing drops what has not
 * started: those runs stay marked for the next read or the sweep.
 */
export class AfterCommitSteps {
  private readonly queue = pLimit(1);
  /** The step being done (one at a time). */
  private current: Promise<void> | undefined;

  constructor(private readonly yieldTo: () => Promise<void> = async () => undefined) {}

  start<T>(step: PendingStep<T>, runId: number, carried?: Carried<T>): void {
    void this.queue(async () => {
      this.current = this.yieldTo()
        .then(() => doMarked(step, runId, { carried }))
        .then(
          () => undefined,
          (error: unknown) => {
            step.log?.warn(
              { err: error, runId, kind: step.kind },
              "a stored run's step after its commit failed; the next read or the sweep does it",
            );
          },
        );
      await this.current;
      this.current = undefined;
    });
  }

  /** Waits for the step being done and forgets the rest (the server closes). */
  async close(): Promise<void> {
    this.queue.clearQueue();
    await this.current;
  }
}
