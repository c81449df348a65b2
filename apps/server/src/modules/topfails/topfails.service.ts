import { TOP_FAILS_WINDOW_MONTHS } from "@assay/core";
import type pg from "pg";
import { withTransaction, type Db } from "../../db/pool.js";
import * as repo from "./topfails.repo.js";

/**
 * Top Fails kept: each test's failures over the window (TOP_FAILS_WINDOW_MONTHS), kept by a job
 * off the upload's path (topfails.jobs.ts) so that the screen reads the top of an index. The read
 * (keptFailsQuery, through runs' history.repo) adds exactly what the totals do not hold yet; it
 * counts from results when they cannot be used (docs/architecture.md, "Top Fails kept").
 */

/** Runs locked and counted per statement while catching up. */
const RUNS_PER_BATCH = 200;

export interface CountStep {
  /** Whether everything was counted again (first step, a change marked, a counted run gone). */
  rebuilt: boolean;
  /** Failures taken away because they left the window. */
  left: number;
  runs: number;
  /** Failures added. */
  added: number;
}

/**
 * One step of the job, in one transaction holding the state row (one server at a time): counts
 * everything again if the totals cannot be trusted, else moves the window's start to now and
 * takes away what left it; then adds the finished runs not counted yet.
 */
export async function countStep(db: Db, months = TOP_FAILS_WINDOW_MONTHS): Promise<CountStep> {
  return withTransaction(db, async (client) => {
    // A rebuild of a year reads the window's failures (600,000 index entries): past the pool's
    // 60 s statement limit on a slow disk is possible, and the job has no one waiting on it.
    await client.query(`SET LOCAL statement_timeout = 0`);
    const state = await repo.lockState(client, months);
    const rebuilt =
      state.stale ||
      state.months !== months ||
      state.countedFrom === null ||
      state.ahead ||
      (await repo.countedRunGone(client));
    let left = 0;
    if (rebuilt) await repo.reset(client, months);
    else left = await repo.moveWindow(client, months);
    let runs = 0;
    let added = 0;
    for (;;) {
      const ids = await repo.lockUncountedRuns(client, RUNS_PER_BATCH);
      if (ids.length === 0) break;
      // One run (an upload's): its own failures through results_failed_run_idx and its partition.
      if (ids.length === 1) added += await repo.countRun(client, ids[0]!);
      else added += await repo.countRuns(client, ids);
      runs += ids.length;
    }
    return { rebuilt, left, runs, added };
  });
}

/**
 * Ingestion's hook, in the transaction that stores results into run `runId` (which holds the
 * run's row): if the run is counted, its failures may change (a rerun's attempts re-ranked), so
 * the totals are marked stale until the job counts everything again. A new run is not counted
 * yet: one probe of topfails_runs' key, nothing more on the upload's path.
 */
export async function runChanging(client: pg.PoolClient, runId: number): Promise<void> {
  await repo.markStale(client, [runId]);
}

/**
 * Retention's hook, in the transaction that removes results of these runs (rolled up into
 * retention_test_days, which Top Fails reads apart): counted runs mark the totals stale. Waits
 * for a step under way to commit first, so that a run it is counting is seen counted.
 */
export async function runsLosingResults(
  client: pg.PoolClient,
  runIds: readonly number[],
): Promise<void> {
  if (runIds.length === 0) return;
  await repo.lockStateRow(client);
  await repo.markStale(client, runIds);
}
