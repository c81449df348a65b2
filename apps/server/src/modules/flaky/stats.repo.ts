import type pg from "pg";

/**
 * Flaky's writes at ingest (issue 35): the per-test windows and figures (flaky_stats), the runs
 * counted (flaky_runs) and the daily count of flaky tests (flaky_trend). Set-based: one
 * statement per table for a whole run.
 */

export interface ContextKey {
  family: string;
  platform: string;
  branch: string;
  site: string;
  environment: string;
}

export interface StoredWindow {
  test_id: number;
  outcomes: string;
  run_ids: number[];
}

/**
 * Takes flaky's windows for this transaction: one run's outcomes are counted at a time, whichever
 * server counts it. Two runs of one context counted at once both read a window before either
 * wrote it, and the later write lost the other run's outcome.
 */
export async function holdWindows(client: pg.ClientBase): Promise<void> {
  await client.query("SELECT pg_advisory_xact_lock(hashtext('assay.flaky-windows'))");
}

/**
 * The stored windows a run of one context moves: every window not settled there (read through
 * the partial index, however large the run), and the settled windows of `failedIds` (the tests
 * that failed or passed on retry in the run).
 */
export async function windowsOf(
  client: pg.ClientBase,
  context: ContextKey,
  failedIds: readonly number[],
): Promise<StoredWindow[]> {
  const { rows } = await client.query<StoredWindow>(
    `SELECT s.test_id::float8 AS test_id, s.outcomes, s.run_ids::float8[] AS run_ids
     FROM flaky_stats s
     WHERE s.family = $1 AND s.platform = $2 AND s.branch = $3 AND s.site = $4
       AND s.environment = $5 AND (NOT s.settled OR s.test_id = ANY($6::bigint[]))`,
    [
      context.family,
      context.platform,
      context.branch,
      context.site,
      context.environment,
      failedIds,
    ],
  );
  return rows;
}

/**
 * Of `testIds`, those this transaction added to the catalogue (tests.created_at = now()): they
 * have no earlier result, so their windows start empty without the history probe. One primary
 * key probe each, far cheaper than the probe of results it spares (docs/performance.md).
 */
export async function createdNow(
  client: pg.ClientBase,
  testIds: readonly number[],
): Promise<Set<number>> {
  if (testIds.length === 0) return new Set();
  const { rows } = await client.query<{ id: number }>(
    `SELECT id::float8 AS id FROM tests WHERE id = ANY($1::bigint[]) AND created_at = now()`,
    [testIds],
  );
  return new Set(rows.map((row) => row.id));
}

export interface StatsRow {
  testId: number;
  outcomes: string;
  runIds: number[];
  score: number;
  flipRate: number;
  failureRate: number;
  failureLow: number;
  failureHigh: number;
  retriesPassed: number;
  lastFlipRunId: number | null;
  settled: boolean;
}

/**
 * Writes the windows of one context. Rows go in test id order, so two runs of one context
 * stored at once lock them in the same order and never deadlock.
 */
export async function upsertStats(
  client: pg.ClientBase,
  context: ContextKey,
  rows: readonly StatsRow[],
): Promise<void> {
  if (rows.length === 0) return;
  const sorted = [...rows].sort((a, b) => a.testId - b.testId);
  await client.query(
    `INSERT INTO flaky_stats (test_id, family, platform, branch, site, environment, outcomes,
                              run_ids, score, flip_rate, failure_rate, failure_low, failure_high,
                              retries_passed, last_flip_run_id, settled)
     SELECT s.test_id, $1, $2, $3, $4, $5, s.outcomes,
            (SELECT array_agg(x::bigint) FROM unnest(string_to_array(s.run_ids, ',')) AS x),
            s.score, s.flip_rate, s.failure_rate, s.failure_low, s.failure_high,
            s.retries_passed, s.last_flip_run_id, s.settled
     FROM unnest($6::bigint[], $7::text[], $8::text[], $9::float8[], $10::float8[], $11::float8[],
                 $12::float8[], $13::float8[], $14::int[], $15::bigint[], $16::boolean[])
          AS s(test_id, outcomes, run_ids, score, flip_rate, failure_rate, failure_low,
               failure_high, retries_passed, last_flip_run_id, settled)
     ON CONFLICT (test_id, family, platform, branch, site, environment) DO UPDATE SET
       outcomes = excluded.outcomes, run_ids = excluded.run_ids, score = excluded.score,
       flip_rate = excluded.flip_rate, failure_rate = excluded.failure_rate,
       failure_low = excluded.failure_low, failure_high = excluded.failure_high,
       retries_passed = excluded.retries_passed, last_flip_run_id = excluded.last_flip_run_id,
       settled = excluded.settled, updated_at = now()`,
    [
      context.family,
      context.platform,
      context.branch,
      context.site,
      context.environment,
      sorted.map((r) => r.testId),
      sorted.map((r) => r.outcomes),
      // A window's run ids travel as one text each: PostgreSQL has no array of arrays of
      // different lengths.
      sorted.map((r) => r.runIds.join(",")),
      sorted.map((r) => r.score),
      sorted.map((r) => r.flipRate),
      sorted.map((r) => r.failureRate),
      sorted.map((r) => r.failureLow),
      sorted.map((r) => r.failureHigh),
      sorted.map((r) => r.retriesPassed),
      sorted.map((r) => r.lastFlipRunId),
      sorted.map((r) => r.settled),
    ],
  );
}

export async function markRunCounted(client: pg.ClientBase, runId: number): Promise<void> {
  await client.query(
    `INSERT INTO flaky_runs (run_id) VALUES ($1)
     ON CONFLICT (run_id) DO UPDATE SET counted_at = now()`,
    [runId],
  );
}

/** Which of `runIds` flaky has counted. */
export async function countedRunIds(
  client: pg.ClientBase,
  runIds: readonly number[],
): Promise<Set<number>> {
  const { rows } = await client.query<{ id: number }>(
    `SELECT run_id::float8 AS id FROM flaky_runs WHERE run_id = ANY($1::bigint[])`,
    [runIds],
  );
  return new Set(rows.map((row) => row.id));
}

/** The family's flaky count as of now, on the run's UTC day (isFlaky's rule, in SQL). */
export async function recordTrend(
  client: pg.ClientBase,
  day: Date,
  family: string,
  rule: { threshold: number; minResults: number },
): Promise<void> {
  await client.query(
    `INSERT INTO flaky_trend (day, family, flaky)
     SELECT ($1::timestamptz AT TIME ZONE 'UTC')::date, $2, count(*)
     FROM flaky_stats
     WHERE score > 0 AND score >= $3 AND family = $2 AND length(outcomes) >= $4
     ON CONFLICT (day, family) DO UPDATE SET flaky = excluded.flaky`,
    [day, family, rule.threshold, rule.minResults],
  );
}

/** Everything derived, to count every run again (the demo, after dating its runs). */
export async function forgetAll(client: pg.ClientBase): Promise<void> {
  await client.query(`TRUNCATE flaky_stats, flaky_runs, flaky_trend`);
}
