import { FAILURE_TEXT_CHARS } from "@assay/core";
import type pg from "pg";
import { NOT_PENDING_MESSAGE_SQL } from "../../db/pending-sql.js";
import { eachRowOn } from "../../db/each-row.js";
import { factIn, factsJoin, runAtOfParam, stackOf } from "../../db/results-sql.js";
import type { ContextOutcomes } from "../ingest/pipeline/result-outcomes.js";

/**
 * A run's failures as triage reads them (issue 34): the final attempts that failed and are not
 * pending, with their error texts and the facts the Failures screen filters by. Read inside the
 * transaction that stored them (ingest) or after (the backfill), through runs' service.
 */

export interface RunFacts {
  id: number;
  key: string;
  family: string;
  executor: string | null;
  branch: string | null;
  /** Its site (nora_site): a failure's own, when the result has none. */
  site: string | null;
  /** The run's env ('' when none): part of a flaky test's job context. */
  environment: string;
  /** Where it ran: a frontend run's site, a backend run's environment. */
  place: string | null;
  at: Date;
}

export interface RunFailureRow {
  id: number;
  test_id: number;
  error_name: string | null;
  error_message: string | null;
  error_stack: string | null;
  platform: string | null;
  branch: string | null;
  nora_site: string | null;
  seen_at: Date;
}

export async function runFacts(client: pg.ClientBase, runId: number): Promise<RunFacts | null> {
  const { rows } = await client.query<RunFacts>(
    `SELECT id::int, test_run_key AS key, family, executor, branch, nora_site AS site,
            coalesce(env, '') AS environment, coalesce(nora_site, env) AS place,
            coalesce(started_at, created_at) AS at
     FROM runs WHERE id = $1`,
    [runId],
  );
  return rows[0] ?? null;
}

// The run's row read once (MATERIALIZED): joined plainly, the planner probed runs' primary key
// once per failure, 100 of the 140 ms of a 100k-test upload's 10,000 failures.
const RUN_FAILURES_SQL = `WITH run AS MATERIALIZED (
       SELECT branch, nora_site, coalesce(started_at, created_at) AS at FROM runs WHERE id = $1
     )
     SELECT r.id::float8 AS id, r.test_id::float8 AS test_id, r.error_name,
            left(r.error_message, ${FAILURE_TEXT_CHARS}) AS error_message,
            left(${stackOf("r")}, ${FAILURE_TEXT_CHARS}) AS error_stack,
            ${factIn("r", "platform")} AS platform,
            coalesce(${factIn("r", "branch")}, run.branch) AS branch,
            coalesce(${factIn("r", "nora_site")}, run.nora_site) AS nora_site,
            coalesce(r.start_time, run.at) AS seen_at
     FROM results r CROSS JOIN run ${factsJoin("r")}
     WHERE r.run_id = $1 AND r.run_at = ${runAtOfParam(1)} AND r.is_final AND r.status = 'failed' AND ${NOT_PENDING_MESSAGE_SQL.replaceAll("error_message", "r.error_message")}`;

/**
 * The run's failures, each handed to `onRow` as it arrives (db/each-row.ts): a nightly run's
 * 10,000 messages and stacks (up to FAILURE_TEXT_CHARS each) are never held together.
 */
export function eachRunFailure(
  client: pg.ClientBase,
  runId: number,
  onRow: (row: RunFailureRow) => void,
): Promise<number> {
  return eachRowOn(client, RUN_FAILURES_SQL, [runId], onRow);
}

/** Runs after `afterId` in id order, a page at a time (the backfill walks every run once). */
export async function runIdsAfter(
  client: pg.ClientBase,
  afterId: number,
  limit: number,
): Promise<number[]> {
  const { rows } = await client.query<{ id: number }>(
    `SELECT id::float8 AS id FROM runs WHERE id > $1 AND family <> 'load' ORDER BY id LIMIT $2`,
    [afterId, limit],
  );
  return rows.map((row) => row.id);
}

/** A run's id and state by its key (the quality gate). */
/**
 * Waits for any transaction that writes the run (an upload into it holds it FOR UPDATE) and
 * keeps it from being deleted until this transaction ends.
 */
export async function holdRun(client: pg.ClientBase, runId: number): Promise<void> {
  await client.query("SELECT 1 FROM runs WHERE id = $1 FOR KEY SHARE", [runId]);
}

/** The run a result belongs to; null when there is no such result. */
export async function runIdOfResult(db: pg.Pool, resultId: number): Promise<number | null> {
  const { rows } = await db.query<{ run_id: number }>(
    `SELECT run_id::float8 AS run_id FROM results WHERE id = $1`,
    [resultId],
  );
  return rows[0]?.run_id ?? null;
}

export async function runStateByKey(
  db: pg.Pool,
  key: string,
): Promise<{ id: number; state: "open" | "finished"; family: string } | null> {
  const { rows } = await db.query<{ id: number; state: "open" | "finished"; family: string }>(
    `SELECT id::float8 AS id, state, family FROM runs WHERE test_run_key = $1`,
    [key],
  );
  return rows[0] ?? null;
}

// Test ids and outcomes in step: one aggregate node feeds both the same rows in the same order,
// so no sort is needed.
export type { ContextOutcomes };

// Skipped results and pending failures (spec §4) are not outcomes: they say nothing of flakiness.
const OUTCOME_SQL = `CASE WHEN r.status = 'failed' THEN 'f' WHEN r.flaky THEN 'r' ELSE 'p' END`;
const IS_OUTCOME_SQL = `(r.status = 'passed' OR (r.status = 'failed' AND ${NOT_PENDING_MESSAGE_SQL.replaceAll("error_message", "r.error_message")}))`;

/** A result's job context ('' when none): its facts (migration 0222: its own or its tuple's). */
const CONTEXT_SQL = `coalesce(${factIn("r", "platform")}, '') AS platform,
  coalesce(${factIn("r", "branch")}, runs.branch, '') AS branch,
  coalesce(${factIn("r", "nora_site")}, runs.nora_site, '') AS site`;

/**
 * A run's final outcomes grouped by context (platform, branch, site; '' when none), one row per
 * context with its tests as arrays: a 100k-test run is a few rows, not 100k.
 */
export async function runOutcomes(
  client: pg.ClientBase,
  runId: number,
): Promise<ContextOutcomes[]> {
  const { rows } = await client.query<ContextOutcomes>(
    `SELECT ${CONTEXT_SQL},
            array_agg(r.test_id::float8) AS test_ids, string_agg(${OUTCOME_SQL}, '') AS outcomes
     FROM results r JOIN runs ON runs.id = r.run_id ${factsJoin("r")}
     WHERE r.run_id = $1 AND r.is_final AND ${IS_OUTCOME_SQL}
     GROUP BY 1, 2, 3`,
    [runId],
  );
  return rows;
}

export interface EarlierOutcome {
  test_id: number;
  run_id: number;
  outcome: "p" | "f" | "r";
  platform: string;
  branch: string;
  site: string;
  environment: string;
}

/**
 * The newest final outcomes of each test in runs stored before `beforeRunId` (at most `limit`
 * per test, any context), read by test id through the history index: what a test's window
 * starts from when it first fails in a context.
 */
export async function earlierOutcomes(
  client: pg.ClientBase,
  testIds: readonly number[],
  beforeRunId: number,
  limit: number,
): Promise<EarlierOutcome[]> {
  if (testIds.length === 0) return [];
  const { rows } = await client.query<EarlierOutcome>(
    `SELECT t.id AS test_id, x.*
     FROM unnest($1::float8[]) AS t(id)
     CROSS JOIN LATERAL (
       SELECT r.run_id::float8 AS run_id, ${OUTCOME_SQL} AS outcome, ${CONTEXT_SQL},
              coalesce(runs.env, '') AS environment
       FROM results r JOIN runs ON runs.id = r.run_id ${factsJoin("r")}
       WHERE r.test_id = t.id::bigint AND r.is_final AND r.run_id < $2 AND ${IS_OUTCOME_SQL}
       ORDER BY r.start_time DESC NULLS LAST
       LIMIT $3
     ) x`,
    [testIds, beforeRunId, limit],
  );
  return rows;
}

/** Runs' keys and times by id (the runs a flaky test's window names). */
export async function runMoments(
  client: pg.Pool | pg.ClientBase,
  runIds: readonly number[],
): Promise<{ id: number; key: string; at: Date }[]> {
  if (runIds.length === 0) return [];
  const { rows } = await client.query<{ id: number; key: string; at: Date }>(
    `SELECT id::float8 AS id, test_run_key AS key, coalesce(started_at, created_at) AS at
     FROM runs WHERE id = ANY($1::bigint[])`,
    [runIds],
  );
  return rows;
}

/** Results' error texts by id (a failure group's sample: one occurrence as the reporter wrote it). */
export async function failureTexts(
  client: pg.Pool | pg.ClientBase,
  resultIds: readonly number[],
): Promise<Map<number, { message: string | null; stack: string | null }>> {
  if (resultIds.length === 0) return new Map();
  const { rows } = await client.query<{ id: number; message: string | null; stack: string | null }>(
    `SELECT id::float8 AS id, error_message AS message,
            left(${stackOf("results")}, ${FAILURE_TEXT_CHARS}) AS stack
     FROM results WHERE id = ANY($1::bigint[])`,
    [resultIds],
  );
  return new Map(rows.map((row) => [row.id, { message: row.message, stack: row.stack }]));
}
