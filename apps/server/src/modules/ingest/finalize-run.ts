import type pg from "pg";

/**
 * After an upload, marks which attempt of each test decides its status (the last), flags tests
 * that passed after failing as flaky, and stores the run's counts so lists and charts read them
 * without scanning results. Pending = skipped by the report, or failed with "Pending reason".
 */
export async function finalizeRun(client: pg.PoolClient, runId: number): Promise<void> {
  await client.query(
    `WITH ranked AS (
       SELECT id, status,
              row_number() OVER w = 1 AS last_attempt,
              bool_or(status = 'failed') OVER w AS ever_failed
       FROM results WHERE run_id = $1
       WINDOW w AS (PARTITION BY test_id, file, suite_path, name ORDER BY attempt DESC, id DESC
                    ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
     )
     UPDATE results r
     SET is_final = ranked.last_attempt,
         flaky = ranked.last_attempt AND ranked.status = 'passed' AND ranked.ever_failed
     FROM ranked
     WHERE r.id = ranked.id
       AND (r.is_final IS DISTINCT FROM ranked.last_attempt
            OR r.flaky IS DISTINCT FROM (ranked.last_attempt AND ranked.status = 'passed' AND ranked.ever_failed))`,
    [runId],
  );
  await client.query(
    `UPDATE runs SET
       total = c.total, passed = c.passed, failed = c.failed, pending = c.pending, flaky = c.flaky,
       duration_ms = c.duration_ms,
       started_at = coalesce(c.started_at, runs.started_at),
       finished_at = CASE WHEN runs.state = 'finished' THEN coalesce(c.finished_at, runs.finished_at, now()) ELSE runs.finished_at END
     FROM (
       SELECT count(*)::int AS total,
              count(*) FILTER (WHERE status = 'passed')::int AS passed,
              count(*) FILTER (WHERE status = 'failed' AND coalesce(error_message, '') NOT LIKE '%Pending reason%')::int AS failed,
              count(*) FILTER (WHERE status = 'skipped' OR (status = 'failed' AND error_message LIKE '%Pending reason%'))::int AS pending,
              count(*) FILTER (WHERE flaky)::int AS flaky,
              coalesce(sum(duration_ms), 0) AS duration_ms,
              min(start_time) AS started_at,
              max(end_time) AS finished_at
       FROM results WHERE run_id = $1 AND is_final
     ) c
     WHERE runs.id = $1`,
    [runId],
  );
}
