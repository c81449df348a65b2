import type { Db } from "../../db/pool.js";
import { nameOf, runAtOfParam, stackOf, stepsOf } from "../../db/results-sql.js";

/** What a run's one-file report holds: the run, and every final result (runs, results: read). */

export interface ReportRun {
  id: string;
  key: string;
  name: string;
  family: string;
  branch: string | null;
  site: string | null;
  total: number;
  passed: number;
  failed: number;
  skipped: number;
  duration_ms: number;
  started_at: Date | null;
  finished_at: Date | null;
}

export interface ReportResult {
  id: string;
  /** The stable test id triage's failure groups list (null for a result of no test). */
  test_id: number | null;
  name: string;
  status: "passed" | "failed" | "skipped";
  duration_ms: number;
  error_message: string | null;
  error_stack: string | null;
  json_steps: { action: string; passed: boolean | null; duration_ms: number | null }[];
}

export async function findReportRun(db: Db, key: string): Promise<ReportRun | undefined> {
  const { rows } = await db.pool.query<ReportRun>(
    `SELECT id, test_run_key AS key, test_run_name AS name, family, branch, nora_site AS site,
            total, passed, failed, pending AS skipped, duration_ms, started_at, finished_at
     FROM runs WHERE test_run_key = $1`,
    [key],
  );
  return rows[0];
}

/** Final attempts in report order (results_run_id index through run_id). */
export async function listReportResults(db: Db, runId: string): Promise<ReportResult[]> {
  const { rows } = await db.pool.query<ReportResult>(
    `SELECT id, test_id::float8 AS test_id, ${nameOf("results")} AS name, status, duration_ms, error_message,
            left(${stackOf("results")}, 4000) AS error_stack, ${stepsOf("results")} AS json_steps
     FROM results WHERE run_id = $1 AND run_at = ${runAtOfParam(1)} AND is_final ORDER BY id`,
    [runId],
  );
  return rows;
}

export interface ReportImage {
  result_id: string;
  name: string;
  content_type: string;
  object_key: string;
  size: string;
}

/** The images attached to the run's final results (attachments: read), in result order. */
export async function listReportImages(db: Db, runId: string): Promise<ReportImage[]> {
  const { rows } = await db.pool.query<ReportImage>(
    `SELECT a.result_id, a.name, a.content_type, a.object_key, a.size
     FROM results r JOIN attachments a ON a.result_id = r.id
     WHERE r.run_id = $1 AND r.run_at = ${runAtOfParam(1)} AND r.is_final AND a.content_type LIKE 'image/%'
     ORDER BY r.id, a.id`,
    [runId],
  );
  return rows;
}
