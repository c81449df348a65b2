import type { Db } from "../../db/pool.js";
import { rerunRunKeys } from "../builds/builds.repo.js";

/**
 * The Dashboard's reads of `runs` (owned by ingestion): runs of one executor since a time, on
 * some sites (frontend) or envs (backend), with the counts ingestion stores on each run. The
 * index runs_executor_created_idx (family, executor, created_at) finds them, so the charts never
 * scan `results` or the runs of other executors.
 */

export interface DailyRunRow {
  id: number;
  key: string;
  name: string;
  executor: string;
  url: string | null;
  createdAt: Date;
  total: number;
  passed: number;
  failed: number;
  skipped: number;
}

export interface DailyRunsFilter {
  family: "frontend" | "backend";
  executor: string;
  since: Date;
  /** nora_site values (frontend) or env values (backend) that count. */
  targets: readonly string[];
}

export function dailyRunsQuery(db: Db, filter: DailyRunsFilter) {
  const targetColumn = filter.family === "frontend" ? "nora_site" : "env";
  return db.kysely
    .selectFrom("runs")
    .select([
      "id",
      "test_run_key as key",
      "test_run_name as name",
      "executor",
      "baseurl as url",
      "created_at as createdAt",
      "total",
      "passed",
      "failed",
      "pending as skipped",
    ])
    .where("family", "=", filter.family)
    .where("executor", "=", filter.executor)
    .where("created_at", ">=", filter.since)
    .where(targetColumn, "in", filter.targets.length > 0 ? [...filter.targets] : [""])
    .orderBy("created_at");
}

/** The runs of `filter`, oldest first. */
export async function listDailyRuns(db: Db, filter: DailyRunsFilter): Promise<DailyRunRow[]> {
  if (filter.targets.length === 0) return [];
  const rows = await dailyRunsQuery(db, filter).execute();
  return rows.map((row) => ({
    ...row,
    id: Number(row.id),
    executor: row.executor ?? filter.executor,
  }));
}

/**
 * The runs the rerun-failed executor worked on: its own runs (a rerun reported as a run of its
 * own) and the runs it reran in place (the Daily Run Scheduler's automatic rerun: a build
 * under that executor name reporting into the scheduled run, which the builds module finds).
 * Newest first.
 */
export async function listRerunRuns(db: Db, filter: DailyRunsFilter): Promise<DailyRunRow[]> {
  if (filter.targets.length === 0) return [];
  const targetColumn = filter.family === "frontend" ? "nora_site" : "env";
  const rows = await db.kysely
    .selectFrom("runs")
    .select([
      "id",
      "test_run_key as key",
      "test_run_name as name",
      "baseurl as url",
      "created_at as createdAt",
      "total",
      "passed",
      "failed",
      "pending as skipped",
    ])
    .where("family", "=", filter.family)
    .where("created_at", ">=", filter.since)
    .where(targetColumn, "in", [...filter.targets])
    .where((eb) =>
      eb.or([
        eb("executor", "=", filter.executor),
        eb("test_run_key", "in", rerunRunKeys(db.kysely, filter.executor, filter.since)),
      ]),
    )
    .orderBy("created_at", "desc")
    .execute();
  return rows.map((row) => ({ ...row, id: Number(row.id), executor: filter.executor }));
}
