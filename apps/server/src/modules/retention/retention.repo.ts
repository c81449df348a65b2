import { TOP_FAILS_WINDOW_MONTHS } from "@assay/core";
import type pg from "pg";

/** A pool or a client in a transaction: batches run on either. */
type Queryable = Pick<pg.Pool | pg.PoolClient, "query">;
import { NOT_PENDING_MESSAGE_SQL } from "../../db/pending-sql.js";
import { HAS_STEPS, STEPS_BYTES } from "../../db/results-sql.js";

/**
 * What retention removes from the tables ingestion writes (runs, results, attachments, API
 * requests), always after rolling it up into its own tables (migration 0170). Each statement is
 * one batch and whole: a batch's roll-up and its removal commit together, so a pass stopped
 * anywhere counts nothing twice and leaves nothing half-done.
 */

export interface OldRun {
  id: number;
  family: string;
  branch: string | null;
  at: Date;
  /** Failed results of any attempt (failed final attempts + flaky tests' failed tries). */
  hasFailures: boolean;
}

/** Finished runs made before `before` (by their start, else their creation), oldest first. */
export async function finishedRunsBefore(client: Queryable, before: Date): Promise<OldRun[]> {
  const { rows } = await client.query<OldRun>(
    `SELECT id::float8 AS id, family, branch, coalesce(started_at, created_at) AS at,
            (failed > 0 OR flaky > 0) AS "hasFailures"
     FROM runs
     WHERE state = 'finished' AND coalesce(started_at, created_at) < $1
     ORDER BY coalesce(started_at, created_at), id`,
    [before],
  );
  return rows;
}

/** A result's final outcome counted as the screens count it: a pending failure is skipped. */
const COUNTS = `
  count(*) FILTER (WHERE r.status = 'passed')::int AS passed,
  count(*) FILTER (WHERE r.status = 'failed' AND ${NOT_PENDING_MESSAGE_SQL.replaceAll("error_message", "r.error_message")})::int AS failed,
  count(*) FILTER (WHERE r.status = 'skipped' OR (r.status = 'failed' AND NOT ${NOT_PENDING_MESSAGE_SQL.replaceAll("error_message", "r.error_message")}))::int AS skipped`;

/**
 * A removed result's UTC day (of its start, else its run's) as the roll-up keys it: the day while
 * Top Fails' window may still reach it, else the first day of its month. A day that left the
 * window never comes back into it, and the other readers (a test's pass rate, with the first and
 * last day) need no finer grain: a pass that removes half a year of 10,000 tests writes 60,000
 * rows instead of 1.8 million (docs/performance.md, "Retention").
 */
const BUCKET_SQL = `
  CASE WHEN d.day < (now() - make_interval(months => ${TOP_FAILS_WINDOW_MONTHS}))::date - 1
       THEN date_trunc('month', d.day)::date ELSE d.day END`;

/** Adds the counts of the final results in `source` (a table or CTE of results) per day. */
export const rollUpSql = (source: string) => `
  INSERT INTO retention_test_days AS t
    (day, family, test_id, passed, failed, skipped, first_day, last_day)
  SELECT ${BUCKET_SQL}, d.family, d.test_id, sum(d.passed)::int, sum(d.failed)::int,
         sum(d.skipped)::int, min(d.day), max(d.day)
  FROM (
    SELECT (coalesce(r.start_time, runs.started_at, runs.created_at) AT TIME ZONE 'UTC')::date AS day,
           runs.family, r.test_id, ${COUNTS}
    FROM ${source} r JOIN runs ON runs.id = r.run_id
    WHERE r.is_final
    GROUP BY 1, 2, 3
  ) d
  GROUP BY 1, 2, 3
  ON CONFLICT (test_id, day, family) DO UPDATE
  SET passed = t.passed + excluded.passed, failed = t.failed + excluded.failed,
      skipped = t.skipped + excluded.skipped,
      first_day = least(coalesce(t.first_day, t.day), excluded.first_day),
      last_day = greatest(coalesce(t.last_day, t.day), excluded.last_day)`;

export interface Removed {
  rows: number;
  bytes: number;
}

/**
 * Removes up to `limit` results of `runId` with one of `statuses`, rolled up first into
 * retention_test_days, in one statement. Their attachments must be gone already (removeAttachments).
 * Bytes: the rows' own size (pg_column_size), without their share of the indexes.
 */
export async function removeResults(
  client: Queryable,
  runId: number,
  statuses: readonly string[],
  limit: number,
): Promise<Removed> {
  const { rows } = await client.query<{ rows: number; bytes: number }>(
    `WITH picked AS (
       SELECT r.* FROM results r WHERE r.run_id = $1 AND r.status = ANY($2) LIMIT $3
     ), rolled AS (${rollUpSql("picked")}),
     -- named here too: a partitioned results has no foreign key to cascade through
     requests AS (DELETE FROM api_requests WHERE result_id IN (SELECT id FROM picked)),
     gone AS (
       DELETE FROM results d USING picked p WHERE d.id = p.id AND d.run_id = p.run_id
       RETURNING pg_column_size(d.*) AS bytes
     )
     SELECT count(*)::int AS rows, coalesce(sum(bytes), 0)::float8 AS bytes FROM gone`,
    [runId, statuses, limit],
  );
  return rows[0]!;
}

export interface RemovedObject {
  key: string;
  size: number;
}

/**
 * Locks up to `limit` attachments of the run's results with one of `statuses` and returns their
 * keys; the caller deletes the objects and then the rows (deleteAttachments), in the same
 * transaction: a pass stopped in between leaves rows naming deleted objects, which the next pass
 * removes again (deleting a missing object is not an error).
 */
export async function lockAttachments(
  client: Queryable,
  runId: number,
  statuses: readonly string[],
  limit: number,
): Promise<(RemovedObject & { id: number })[]> {
  const { rows } = await client.query<RemovedObject & { id: number }>(
    `SELECT a.id::float8 AS id, a.object_key AS key, a.size::float8 AS size
     FROM attachments a JOIN results r ON r.id = a.result_id
     WHERE r.run_id = $1 AND r.status = ANY($2)
     ORDER BY a.id LIMIT $3 FOR UPDATE OF a SKIP LOCKED`,
    [runId, statuses, limit],
  );
  return rows;
}

export async function deleteAttachments(client: Queryable, ids: readonly number[]) {
  await client.query(`DELETE FROM attachments WHERE id = ANY($1::bigint[])`, [ids]);
}

/** Empties the steps of up to `limit` results of the run with one of `statuses`. */
export async function trimSteps(
  client: Queryable,
  runId: number,
  statuses: readonly string[],
  limit: number,
): Promise<Removed> {
  const { rows } = await client.query<{ rows: number; bytes: number }>(
    `WITH picked AS (
       SELECT id, ${STEPS_BYTES} AS bytes
       FROM results
       WHERE run_id = $1 AND status = ANY($2) AND ${HAS_STEPS}
       LIMIT $3
     ), done AS (
       UPDATE results r SET json_steps = NULL, json_before_steps = NULL, steps_ref = NULL,
         before_steps_ref = NULL
       FROM picked WHERE r.id = picked.id AND r.run_id = $1
       RETURNING picked.bytes
     )
     SELECT count(*)::int AS rows, coalesce(sum(bytes), 0)::float8 AS bytes FROM done`,
    [runId, statuses, limit],
  );
  return rows[0]!;
}

/** Records a whole run's unstable count before its results go (its roll-up is written at the end). */
export async function markDoomed(client: Queryable, runId: number, unstable: number) {
  await client.query(
    `INSERT INTO retention_doomed_runs (run_id, unstable) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
    [runId, unstable],
  );
}

/** Runs a stopped pass had started to remove whole. */
export async function doomedRunIds(client: Queryable): Promise<number[]> {
  const { rows } = await client.query<{ id: number }>(
    `SELECT run_id::float8 AS id FROM retention_doomed_runs ORDER BY run_id`,
  );
  return rows.map((row) => row.id);
}

/**
 * Adds the run (its results gone) to retention_run_days and removes it; the tables that hang off
 * runs go with it (ON DELETE CASCADE). Returns the run row's bytes, or 0 when it was gone already.
 */
export async function removeRun(client: Queryable, runId: number): Promise<number> {
  const { rows } = await client.query<{ bytes: number }>(
    `WITH doomed AS (
       DELETE FROM retention_doomed_runs WHERE run_id = $1 RETURNING unstable
     ), rolled AS (
       INSERT INTO retention_run_days AS t
         (day, family, executor, nora_site, env, runs, total, passed, failed, unstable, skipped)
       SELECT (runs.created_at AT TIME ZONE 'UTC')::date, runs.family, coalesce(runs.executor, ''),
              coalesce(runs.nora_site, ''), coalesce(runs.env, ''), 1, runs.total, runs.passed,
              runs.failed, coalesce((SELECT unstable FROM doomed), 0), runs.pending
       FROM runs WHERE runs.id = $1
       ON CONFLICT (family, executor, day, nora_site, env) DO UPDATE
       SET runs = t.runs + 1, total = t.total + excluded.total, passed = t.passed + excluded.passed,
           failed = t.failed + excluded.failed, unstable = t.unstable + excluded.unstable,
           skipped = t.skipped + excluded.skipped
     )
     DELETE FROM runs WHERE id = $1 RETURNING pg_column_size(runs.*)::float8 AS bytes`,
    [runId],
  );
  return rows[0]?.bytes ?? 0;
}
