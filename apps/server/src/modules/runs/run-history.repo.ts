import { sql } from "kysely";
import type { Db } from "../../db/pool.js";
import { runAtOf } from "../../db/results-sql.js";

/** Reads behind GET /v1/test-runs/{key}/history: recent history of every test of one run. */

/**
 * The run's final results: each test's own entry, the first of its history.
 * Only a failure's message is read, which is all the status rules need of it.
 */
export async function listRunFinalResults(db: Db, runId: number) {
  const rows = await db.kysely
    .selectFrom("results")
    .select(["test_id", "test_run_test_id", "status", "start_time"])
    .select(
      sql<string | null>`CASE WHEN status = 'failed' THEN error_message END`.as("error_message"),
    )
    .where("run_id", "=", runId)
    .where("run_at", "=", runAtOf(runId))
    .where("is_final", "=", true)
    .orderBy("id")
    .execute();
  return rows.map((row) => ({ ...row, test_id: Number(row.test_id) }));
}

export interface EarlierHistoryRow {
  test_id: number;
  test_run_test_id: string;
  status: "passed" | "failed" | "skipped";
  error_message: string | null;
  start_time: Date | null;
  test_run_key: string;
}

/**
 * A test of the run and the time its history is read back from; `readId`: whose results are
 * read for it (the test itself, or another test of its alias group: a renamed test's history).
 */
export interface HistoryAnchor {
  testId: number;
  readId?: number;
  anchor: Date;
}

/**
 * For each test, its `limit` latest final results in runs other than `runId` that started no
 * later than its anchor: one probe of results_latest_final_idx per test read, newest first (a
 * test's rows from several read ids come merged in that order). `is_final` is written as a
 * literal so that the planner can match the partial index whatever the parameters; NULLS LAST
 * (no undated result passes the anchor) states the index's order.
 */
export function earlierHistoryQuery(
  db: Db,
  runId: number,
  anchors: readonly HistoryAnchor[],
  limit: number,
) {
  const ids = anchors.map((a) => a.testId);
  const readIds = anchors.map((a) => a.readId ?? a.testId);
  const times = anchors.map((a) => a.anchor.toISOString());
  return sql<EarlierHistoryRow>`
    SELECT own.test_id, h.test_run_test_id, h.status, h.error_message, h.start_time,
           runs.test_run_key
    FROM unnest(${ids}::bigint[], ${readIds}::bigint[], ${times}::timestamptz[])
      AS own(test_id, read_id, anchor)
    CROSS JOIN LATERAL (
      SELECT r.run_id, r.test_run_test_id, r.status, r.start_time, r.id,
             CASE WHEN r.status = 'failed' THEN r.error_message END AS error_message
      FROM results r
      WHERE r.test_id = own.read_id AND r.is_final
        AND r.start_time <= own.anchor AND r.run_id <> ${runId}
      ORDER BY r.start_time DESC NULLS LAST, r.id DESC
      LIMIT ${limit}
    ) h
    JOIN runs ON runs.id = h.run_id
    ORDER BY own.test_id, h.start_time DESC NULLS LAST, h.id DESC`;
}

export async function listEarlierHistory(
  db: Db,
  runId: number,
  anchors: readonly HistoryAnchor[],
  limit: number,
): Promise<EarlierHistoryRow[]> {
  if (anchors.length === 0) return [];
  const { rows } = await earlierHistoryQuery(db, runId, anchors, limit).execute(db.kysely);
  return rows.map((row) => ({ ...row, test_id: Number(row.test_id) }));
}
