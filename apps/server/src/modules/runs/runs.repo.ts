import { sql } from "kysely";
import type { Db } from "../../db/pool.js";
import { runPrepared } from "../../db/prepared.js";
import { API_REQUEST_COLUMNS } from "./results.repo.js";
import { RUN_COLUMNS, withIds, type Family } from "./run-list.repo.js";

/**
 * Reads of runs: one by key, the tagged failures of a page of runs, a run's API requests and
 * load statistics (its results: results.repo.ts). node-postgres returns bigint columns as
 * strings, so ids are turned into numbers here, once.
 */

/** One page of a family's runs, newest first (runs_family_created_idx). */
export { listRuns, countRuns, type RunRow, type Family } from "./run-list.repo.js";

export async function findRun(db: Db, family: Family, key: string) {
  const row = await db.kysely
    .selectFrom("runs")
    .select(RUN_COLUMNS)
    // Changes with every update of the row: the version of what is stored about the run.
    .select(sql<string>`xmin::text`.as("row_version"))
    .select("warnings")
    .where("test_run_key", "=", key)
    .where("family", "=", family)
    .executeTakeFirst();
  return row && withIds(row);
}
export type FoundRun = NonNullable<Awaited<ReturnType<typeof findRun>>>;

/** Ids of the tests in a dynamic tag (the '@unstable' tag, for the status rules). */
export async function listTaggedTestIds(db: Db, tagName: string): Promise<number[]> {
  const rows = await db.kysely
    .selectFrom("tagged_tests")
    .innerJoin("tags", "tags.id", "tagged_tests.tag_id")
    .select("tagged_tests.test_id")
    .where("tags.name", "=", tagName)
    .execute();
  return rows.map((row) => Number(row.test_id));
}

/**
 * Final failed results of the given runs and tests (those of a tag): the candidates for
 * "unstable" in the run lists. One probe of results_failed_run_idx (migration 0008) per run and
 * tagged test, so this stays small however big the runs and their history are. Planned once a
 * connection (db/prepared.ts): a run's id prunes no month, and planning every month's probe
 * was 4 ms of each run list and Dashboard chart for 0.02 ms of execution.
 */
export async function listTaggedFailures(
  db: Db,
  runIds: readonly number[],
  testIds: readonly number[],
) {
  if (runIds.length === 0 || testIds.length === 0) return [];
  const query = db.kysely
    .selectFrom("results")
    .select(["run_id", "test_id", "status", "error_message"])
    .where(sql<boolean>`run_id = any(${[...runIds]}::bigint[])`)
    // Written into the SQL, so that the generic plan can use the index's predicate.
    .where("is_final", "=", sql.lit(true))
    .where("status", "=", sql.lit("failed"))
    .where(sql<boolean>`test_id = any(${[...testIds]}::bigint[])`);
  const rows = await runPrepared(db, query);
  return rows.map((row) => ({ ...row, run_id: Number(row.run_id), test_id: Number(row.test_id) }));
}

/** One page of a run's API requests, in order (api_requests_run_idx). */
export async function listRunApiRequests(db: Db, runId: number, limit: number, offset: number) {
  const rows = await db.kysely
    .selectFrom("api_requests")
    .select(API_REQUEST_COLUMNS)
    .where("run_id", "=", runId)
    .orderBy("id")
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map(withIds);
}

export async function countRunApiRequests(db: Db, runId: number): Promise<number> {
  const row = await db.kysely
    .selectFrom("api_requests")
    .select((eb) => eb.fn.countAll<string>().as("count"))
    .where("run_id", "=", runId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** A load run's per-endpoint statistics, the aggregated row last (load_stats_run_idx). */
export async function listLoadStats(db: Db, runId: number) {
  const rows = await db.kysely
    .selectFrom("load_stats")
    .select([
      "id",
      "method",
      "name",
      "requests",
      "failures",
      "median_ms",
      "p95_ms",
      "p99_ms",
      "average_ms",
      "min_ms",
      "max_ms",
      "requests_per_s",
      "failures_per_s",
      "aggregated",
    ])
    .where("run_id", "=", runId)
    .orderBy("aggregated")
    .orderBy("id")
    .execute();
  return rows.map(withIds);
}
export type LoadStatRow = Awaited<ReturnType<typeof listLoadStats>>[number];
