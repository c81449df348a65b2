import type pg from "pg";

/** Flaky's reads: the ranking, one test's windows, the trend and settled tests. */

export interface StatsView {
  test_id: number;
  name: string;
  family: string;
  platform: string;
  branch: string;
  site: string;
  environment: string;
  outcomes: string;
  run_ids: number[];
  score: number;
  flip_rate: number;
  failure_rate: number;
  failure_low: number;
  failure_high: number;
  retries_passed: number;
  last_flip_run_id: number | null;
}

// The name is the catalogue's title, as the traceability matrix reads it.
const VIEW_SQL = `
  SELECT s.test_id::float8 AS test_id, coalesce(t.title, '') AS name, s.family, s.platform,
         s.branch, s.site, s.environment, s.outcomes, s.run_ids::float8[] AS run_ids,
         s.score, s.flip_rate,
         s.failure_rate, s.failure_low,
         s.failure_high, s.retries_passed,
         s.last_flip_run_id::float8 AS last_flip_run_id
  FROM flaky_stats s LEFT JOIN tests t ON t.id = s.test_id`;

export interface RankFilter {
  family?: string;
  platform?: string;
  branch?: string;
  threshold: number;
  /** Windows of fewer results are left out (ASSAY_FLAKY_MIN_RESULTS). */
  minResults: number;
  limit: number;
}

/**
 * Tests at or above the threshold over at least minResults results, highest score first (the
 * partial index's order; the length is checked on the rows it finds).
 */
export async function ranked(db: pg.Pool, filter: RankFilter): Promise<StatsView[]> {
  const { rows } = await db.query<StatsView>(
    `${VIEW_SQL}
     WHERE s.score > 0 AND s.score >= $1 AND ($2::text IS NULL OR s.family = $2)
       AND ($3::text IS NULL OR s.platform = $3) AND ($4::text IS NULL OR s.branch = $4)
       AND length(s.outcomes) >= $6
     ORDER BY s.score DESC, s.test_id
     LIMIT $5`,
    [
      filter.threshold,
      filter.family ?? null,
      filter.platform ?? null,
      filter.branch ?? null,
      filter.limit,
      filter.minResults,
    ],
  );
  return rows;
}

/** A test's windows in every context, highest score first. */
export async function windowsOfTest(db: pg.Pool, testId: number): Promise<StatsView[]> {
  const { rows } = await db.query<StatsView>(
    `${VIEW_SQL} WHERE s.test_id = $1 ORDER BY s.score DESC, s.family, s.platform, s.branch`,
    [testId],
  );
  return rows;
}

/** Flaky counts per family and UTC day since `since`. */
export async function trend(
  db: pg.Pool,
  since: Date,
): Promise<{ day: string; family: string; count: number }[]> {
  const { rows } = await db.query<{ day: string; family: string; count: number }>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, family, flaky AS count
     FROM flaky_trend WHERE day >= ($1::timestamptz AT TIME ZONE 'UTC')::date
     ORDER BY day, family`,
    [since],
  );
  return rows;
}

/**
 * Of `testIds`, those whose every window holds `size` passes: stable for their last N results
 * wherever they ran. A test without a row never failed since counting began: see
 * neverFailedTests.
 */
export async function settledTests(
  db: pg.Pool,
  testIds: readonly number[],
  size: number,
): Promise<{ test_id: number; results: number }[]> {
  if (testIds.length === 0) return [];
  const { rows } = await db.query<{ test_id: number; results: number }>(
    `SELECT test_id::float8 AS test_id, min(length(outcomes))::int AS results
     FROM flaky_stats WHERE test_id = ANY($1::bigint[])
     GROUP BY test_id
     HAVING bool_and(length(outcomes) >= $2 AND outcomes !~ '[^p]')`,
    [testIds, size],
  );
  return rows;
}

/**
 * Of `testIds`, those without any window (never failed nor passed on a retry since counting
 * began) whose last `size` final results, skipped ones aside, are all passes: one probe of
 * results_latest_final_idx per test (its order, NULLS LAST, stated), at most `size` index entries
 * each (docs/flaky.md, '@unstable').
 */
export async function neverFailedTests(
  db: pg.Pool,
  testIds: readonly number[],
  size: number,
): Promise<{ test_id: number; results: number }[]> {
  if (testIds.length === 0) return [];
  const { rows } = await db.query<{ test_id: number; results: number }>(
    `SELECT t.id::float8 AS test_id, count(*)::int AS results
     FROM unnest($1::bigint[]) AS t(id)
     CROSS JOIN LATERAL (
       SELECT r.status FROM results r
       WHERE r.test_id = t.id AND r.is_final AND r.status <> 'skipped'
       ORDER BY r.start_time DESC NULLS LAST, r.id DESC LIMIT $2
     ) h
     WHERE NOT EXISTS (SELECT FROM flaky_stats s WHERE s.test_id = t.id)
     GROUP BY t.id
     HAVING count(*) >= $2 AND bool_and(h.status = 'passed')`,
    [testIds, size],
  );
  return rows;
}
