import { sql } from "kysely";
import type pg from "pg";
import { NOT_PENDING_MESSAGE_SQL } from "../../db/pending-sql.js";
import type { Db } from "../../db/pool.js";
import { runAtOfParam } from "../../db/results-sql.js";
import { rolledUpFailsQuery } from "../retention/rollups.repo.js";

/**
 * The tables of Top Fails kept (migration 0193): each test's failures over the window, counted
 * by a job from the runs it has seen, and the read that adds what they do not hold yet.
 */

type Queryable = Pick<pg.PoolClient, "query">;

/** What Top Fails counts, as results_failed_time_idx's predicate states it (migration 0010). */
const FAILED = `is_final AND status = 'failed' AND ${NOT_PENDING_MESSAGE_SQL}`;

export interface KeptState {
  months: number;
  countedFrom: Date | null;
  /** counted_from is later than the window's start now (the database's clock went back). */
  ahead: boolean;
  stale: boolean;
}

/*
 * The steps' clock is the statement's (statement_timestamp), not the transaction's (now()): a
 * step that waited for another's lock started before it, and its now() would put the window's
 * start before the one the other step just counted from.
 */

/**
 * Takes the state row's lock for the caller's transaction, making the row first if there is
 * none (stale: nothing counted yet). Every writer of the kept tables takes it first, so two
 * servers never count at once, and a mark (markStale) waits for a count under way to commit.
 */
export async function lockState(client: Queryable, months: number): Promise<KeptState> {
  await client.query(
    `INSERT INTO topfails_state (months, stale) VALUES ($1, true) ON CONFLICT (id) DO NOTHING`,
    [months],
  );
  const { rows } = await client.query<{
    months: number;
    counted_from: Date | null;
    ahead: boolean | null;
    stale: boolean;
  }>(
    `SELECT months, counted_from, stale,
            counted_from > clock_timestamp() - make_interval(months => $1) AS ahead
     FROM topfails_state FOR UPDATE`,
    [months],
  );
  const row = rows[0]!;
  return {
    months: row.months,
    countedFrom: row.counted_from,
    ahead: row.ahead === true,
    stale: row.stale,
  };
}

/** Waits for a count under way and holds it off until the caller's transaction ends. */
export async function lockStateRow(client: Queryable): Promise<void> {
  await client.query(`SELECT 1 FROM topfails_state FOR UPDATE`);
}

/** Whether a counted run whose failures the totals still hold is gone (deleted). */
export async function countedRunGone(client: Queryable): Promise<boolean> {
  const { rows } = await client.query(
    `SELECT 1 FROM topfails_runs k WHERE k.fails > 0
       AND NOT EXISTS (SELECT 1 FROM runs WHERE runs.id = k.run_id) LIMIT 1`,
  );
  return rows.length > 0;
}

/** Forgets everything counted: the window starts again at `from` (now - the window). */
export async function reset(client: Queryable, months: number): Promise<Date> {
  await client.query(`DELETE FROM topfails_totals`);
  await client.query(`DELETE FROM topfails_runs`);
  const { rows } = await client.query<{ from: Date }>(
    `UPDATE topfails_state SET months = $1, stale = false,
            counted_from = statement_timestamp() - make_interval(months => $1)
     RETURNING counted_from AS "from"`,
    [months],
  );
  return rows[0]!.from;
}

/**
 * Takes away the failures of counted runs that left the window between counted_from and now,
 * and moves counted_from to now - the window. Counted runs are unchanged since counted (a
 * change marks the state stale), so their results still say what was added.
 */
export async function moveWindow(client: Queryable, months: number): Promise<number> {
  const { rows } = await client.query<{ n: number }>(
    // The bounds as scalar subqueries, values the index scan of each partition starts from.
    `WITH gone AS (
       SELECT r.run_id, r.test_id FROM results r
       WHERE ${FAILED} AND r.start_time >= (SELECT counted_from FROM topfails_state)
         AND r.start_time < statement_timestamp() - make_interval(months => $1)
         AND r.run_id IN (SELECT run_id FROM topfails_runs)
     ), per_test AS (
       UPDATE topfails_totals t SET fail_count = t.fail_count - g.n
       FROM (SELECT test_id, count(*)::int AS n FROM gone GROUP BY test_id) g
       WHERE t.test_id = g.test_id
     ), per_run AS (
       UPDATE topfails_runs k SET fails = k.fails - g.n
       FROM (SELECT run_id, count(*)::int AS n FROM gone GROUP BY run_id) g
       WHERE k.run_id = g.run_id
     ), moved AS (
       UPDATE topfails_state SET counted_from = statement_timestamp() - make_interval(months => $1)
     )
     SELECT count(*)::int AS n FROM gone`,
    [months],
  );
  await client.query(`DELETE FROM topfails_totals WHERE fail_count <= 0`);
  // Runs deleted once none of their failures were counted any more change nothing: forgotten.
  await client.query(
    `DELETE FROM topfails_runs k WHERE NOT EXISTS (SELECT 1 FROM runs WHERE runs.id = k.run_id)`,
  );
  return rows[0]!.n;
}

/**
 * Finished runs not counted yet, locked against uploads into them until the count commits (FOR
 * SHARE; an upload holds its run FOR UPDATE from its start, and marks the state stale if its run
 * is counted by then: markStale). A run an upload holds now is skipped, never waited for (the
 * upload may be waiting for the state row this step holds): the next step counts it. Open (live)
 * runs are left to the read.
 */
export async function lockUncountedRuns(client: Queryable, limit: number): Promise<number[]> {
  const { rows } = await client.query<{ id: number }>(
    `SELECT id::float8 AS id FROM runs
     WHERE state = 'finished' AND NOT EXISTS (SELECT 1 FROM topfails_runs k WHERE k.run_id = runs.id)
     ORDER BY id LIMIT $1 FOR SHARE SKIP LOCKED`,
    [limit],
  );
  return rows.map((row) => row.id);
}

/** Adds one run's failures at or after counted_from to the totals; returns how many. */
export async function countRun(client: Queryable, runId: number): Promise<number> {
  const { rows } = await client.query<{ n: number }>(
    `WITH fails AS (
       SELECT test_id, count(*)::int AS n FROM results
       WHERE run_id = $1 AND run_at = ${runAtOfParam(1)} AND ${FAILED}
         AND start_time >= (SELECT counted_from FROM topfails_state)
       GROUP BY test_id
     ), added AS (
       INSERT INTO topfails_totals AS t (test_id, fail_count) SELECT test_id, n FROM fails
       ON CONFLICT (test_id) DO UPDATE SET fail_count = t.fail_count + excluded.fail_count
     ), run AS (
       INSERT INTO topfails_runs (run_id, fails) SELECT $1, coalesce(sum(n), 0) FROM fails
     )
     SELECT coalesce(sum(n), 0)::int AS n FROM fails`,
    [runId],
  );
  return rows[0]!.n;
}

/**
 * Adds the failures at or after counted_from of many runs in one statement (a count from
 * nothing: the window's failures through results_failed_time_idx, not each run's all).
 */
export async function countRuns(client: Queryable, runIds: readonly number[]): Promise<number> {
  const { rows } = await client.query<{ n: number }>(
    `WITH fails AS (
       SELECT run_id, test_id FROM results
       WHERE ${FAILED} AND start_time >= (SELECT counted_from FROM topfails_state)
         AND run_id = ANY($1::bigint[])
     ), added AS (
       INSERT INTO topfails_totals AS t (test_id, fail_count)
       SELECT test_id, count(*) FROM fails GROUP BY test_id
       ON CONFLICT (test_id) DO UPDATE SET fail_count = t.fail_count + excluded.fail_count
     ), per_run AS (SELECT run_id, count(*)::int AS n FROM fails GROUP BY run_id),
     run AS (
       INSERT INTO topfails_runs (run_id, fails)
       SELECT id, coalesce(p.n, 0) FROM unnest($1::bigint[]) AS id
       LEFT JOIN per_run p ON p.run_id = id
     )
     SELECT count(*)::int AS n FROM fails`,
    [runIds],
  );
  return rows[0]!.n;
}

/**
 * Marks the state stale if one of the runs is counted: their results change in the caller's
 * transaction. The caller holds the runs' rows (an upload) or the state row (lockStateRow), so
 * that a count of these runs under way has committed before this reads topfails_runs.
 */
export async function markStale(client: Queryable, runIds: readonly number[]): Promise<boolean> {
  const { rowCount } = await client.query(
    `UPDATE topfails_state SET stale = true
     WHERE NOT stale AND EXISTS (SELECT 1 FROM topfails_runs WHERE run_id = ANY($1::bigint[]))`,
    [runIds],
  );
  return (rowCount ?? 0) > 0;
}

/**
 * The kept answer's rows per test, (test_id, fail_count) as the count over results gives them,
 * for the tests that can be among the first `limit` once aliases are summed: the first of the
 * kept totals, and every test whose total the read changes (failures of runs not counted yet,
 * failures that left the window since the job last moved it, failures retention rolled up) or
 * that aliases sum. No row at all unless the kept totals can be used (the job has counted, the
 * state is not stale, no counted run is gone): the caller then counts from results.
 */
export function keptFailsQuery(db: Db, months: number, limit: number) {
  const rolledUp = rolledUpFailsQuery(db, months);
  return sql<{ test_id: number; fail_count: string }>`(
    WITH st AS (
      SELECT counted_from, now() - make_interval(months => ${months}) AS since
      FROM topfails_state
      WHERE months = ${months} AND NOT stale
        AND counted_from <= now() - make_interval(months => ${months})
        AND NOT EXISTS (SELECT 1 FROM topfails_runs k WHERE k.fails > 0
                          AND NOT EXISTS (SELECT 1 FROM runs WHERE runs.id = k.run_id))
    ), fresh AS (
      SELECT id, created_at FROM runs
      WHERE NOT EXISTS (SELECT 1 FROM topfails_runs k WHERE k.run_id = runs.id)
    ), delta AS (
      -- Each run's failures through results_failed_run_idx in its own partition; the window is
      -- a filter of the count, not a condition the planner could read the time index for (the
      -- whole window's entries, to keep a few thousand).
      SELECT r.test_id, count(*) FILTER (WHERE r.start_time >= (SELECT since FROM st)) AS fail_count
      FROM fresh JOIN results r ON r.run_id = fresh.id
      WHERE r.is_final AND r.status = 'failed'
        AND ${sql.raw(NOT_PENDING_MESSAGE_SQL.replaceAll("error_message", "r.error_message"))}
      GROUP BY r.test_id
      HAVING count(*) FILTER (WHERE r.start_time >= (SELECT since FROM st)) > 0
      UNION ALL
      SELECT r.test_id, -count(*) FROM results r
      WHERE ${sql.raw(FAILED)}
        AND r.start_time >= (SELECT counted_from FROM st) AND r.start_time < (SELECT since FROM st)
        AND r.run_id IN (SELECT run_id FROM topfails_runs)
      GROUP BY r.test_id
      UNION ALL
      ${rolledUp}
    ), adjusted AS (
      SELECT test_id, sum(fail_count) AS n FROM delta GROUP BY test_id
    ), touched AS (
      SELECT test_id FROM adjusted
      UNION SELECT test_id FROM test_alias_canonical
      UNION SELECT canonical_id FROM test_alias_canonical
    ), first_kept AS (
      SELECT test_id, fail_count FROM topfails_totals
      ORDER BY fail_count DESC, test_id
      LIMIT ${limit} + (SELECT count(*) FROM touched)
    )
    SELECT c.test_id, c.fail_count FROM (
      (SELECT k.test_id, k.fail_count::bigint AS fail_count FROM first_kept k
       WHERE NOT EXISTS (SELECT 1 FROM touched x WHERE x.test_id = k.test_id)
       ORDER BY k.fail_count DESC, k.test_id LIMIT ${limit})
      UNION ALL
      SELECT x.test_id, coalesce(t.fail_count, 0) + coalesce(a.n, 0)
      FROM touched x
      LEFT JOIN topfails_totals t ON t.test_id = x.test_id
      LEFT JOIN adjusted a ON a.test_id = x.test_id
    ) c
    WHERE c.fail_count > 0 AND EXISTS (SELECT 1 FROM st)
  )`;
}
