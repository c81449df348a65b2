import type pg from "pg";
import type { Db } from "../../db/pool.js";
import * as repo from "./failures.repo.js";

export type { RunFacts, RunFailureRow } from "./failures.repo.js";

/**
 * A run's facts, its failed results (final attempts, not pending) handed to `onFailure` one by
 * one as they are read, for triage's fingerprints; null when there is no such run. `client` may
 * be the transaction that is storing the run: triage reads what it has not committed yet.
 */
export async function eachFailureOf(
  client: pg.ClientBase,
  runId: number,
  onFailure: (failure: repo.RunFailureRow) => void,
): Promise<repo.RunFacts | null> {
  const run = await repo.runFacts(client, runId);
  if (!run) return null;
  await repo.eachRunFailure(client, runId, onFailure);
  return run;
}

/** A run's facts (key, family, branch, site, time); null when there is no such run. */
export function runFacts(client: pg.ClientBase, runId: number): Promise<repo.RunFacts | null> {
  return repo.runFacts(client, runId);
}

/** Run ids after `afterId`, oldest first (load runs have no failures to read). */
export function runIdsAfter(client: pg.ClientBase, afterId: number, limit: number) {
  return repo.runIdsAfter(client, afterId, limit);
}

/** A run's id, state and family by its key; null when there is no such run. */
export function runState(db: Db, key: string) {
  return repo.runStateByKey(db.pool, key);
}

/**
 * Before a module's transaction that derives from a stored run takes its own locks: waits for an
 * upload writing into the run, which then takes the module's (triage's mark) after the run.
 */
export function holdRun(client: pg.ClientBase, runId: number) {
  return repo.holdRun(client, runId);
}

/** The run of a result (a decision on it waits for that run's triage). */
export function runOfResult(db: Db, resultId: number) {
  return repo.runIdOfResult(db.pool, resultId);
}

export type { ContextOutcomes, EarlierOutcome } from "./failures.repo.js";

/**
 * A run and its final outcomes per context, for flaky tests' windows (issue 35); null when
 * there is no such run. Read in the transaction of flaky's step after the commit that stored
 * the run (or of the backfill); `written`, when given, stands for the read.
 */
export async function runOutcomesFor(
  client: pg.ClientBase,
  runId: number,
  written?: readonly repo.ContextOutcomes[],
): Promise<{ run: repo.RunFacts; contexts: readonly repo.ContextOutcomes[] } | null> {
  const run = await repo.runFacts(client, runId);
  if (!run) return null;
  return { run, contexts: written ?? (await repo.runOutcomes(client, runId)) };
}

/** Tests' newest outcomes before a run (by test id): where a new flaky window starts. */
export function earlierOutcomes(
  client: pg.ClientBase,
  testIds: readonly number[],
  beforeRunId: number,
  limit: number,
) {
  return repo.earlierOutcomes(client, testIds, beforeRunId, limit);
}

/** Runs' keys and times by id. */
export function runMoments(db: Db, runIds: readonly number[]) {
  return repo.runMoments(db.pool, runIds);
}

/** Results' error texts by id; a result no longer stored is absent. */
export function failureTexts(db: Db, resultIds: readonly number[]) {
  return repo.failureTexts(db.pool, resultIds);
}
