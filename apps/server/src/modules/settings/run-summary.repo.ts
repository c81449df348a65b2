import { sql } from "kysely";
import type { Db } from "../../db/pool.js";
import { nameOf, runAtOf } from "../../db/results-sql.js";

/**
 * The reads of a schedule's follow-up: a run's stored counts (runs, owned by ingestion) and its
 * new failures (results): tests whose final result in this run failed while their latest final
 * result in an earlier run of the same family did not fail, or who had none (spec section 4's
 * "New Failure" rule). results_failed_run_idx finds the run's failures;
 * results_latest_final_idx each test's previous result.
 */

export interface RunCounts {
  id: number;
  key: string;
  name: string;
  family: "frontend" | "backend" | "load";
  total: number;
  passed: number;
  failed: number;
  skipped: number;
  flaky: number;
}

export async function findRunCounts(db: Db, key: string): Promise<RunCounts | undefined> {
  const row = await db.kysely
    .selectFrom("runs")
    .select([
      "id",
      "test_run_key as key",
      "test_run_name as name",
      "family",
      "total",
      "passed",
      "failed",
      "pending as skipped",
      "flaky",
    ])
    .where("test_run_key", "=", key)
    .executeTakeFirst();
  return row && { ...row, id: Number(row.id) };
}

export interface NewFailure {
  testId: number;
  name: string;
}

/** The run's new failures, by test id, at most `limit`; `count` is all of them. */
export async function newFailures(
  db: Db,
  run: Pick<RunCounts, "id" | "family">,
  limit: number,
): Promise<{ count: number; items: NewFailure[] }> {
  const { rows } = await sql<{ test_id: string; name: string; count: string }>`
    SELECT f.test_id, ${sql.raw(nameOf("f"))} AS name, count(*) OVER () AS count
    FROM results f
    WHERE f.run_id = ${run.id} AND f.run_at = ${runAtOf(run.id)} AND f.is_final AND f.status = 'failed'
      AND NOT EXISTS (
        SELECT 1 FROM (
          SELECT p.status FROM results p JOIN runs pr ON pr.id = p.run_id
          WHERE p.test_id = f.test_id AND p.run_id < ${run.id} AND p.is_final
            AND pr.family = ${run.family}
          ORDER BY p.run_id DESC LIMIT 1
        ) previous WHERE previous.status = 'failed'
      )
    ORDER BY f.test_id
    LIMIT ${limit}`.execute(db.kysely);
  return {
    count: rows.length > 0 ? Number(rows[0]!.count) : 0,
    items: rows.map((row) => ({ testId: Number(row.test_id), name: row.name })),
  };
}
