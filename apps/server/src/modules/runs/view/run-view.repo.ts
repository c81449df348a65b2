import { sql } from "kysely";
import type { Db } from "../../../db/pool.js";
import { resultsWithLastShot } from "../runs.repo.js";
import { factsOfResult, namesOfResult, runAtOf } from "../../../db/results-sql.js";

/**
 * Reads behind the run view (view.service.ts): the final results of one run, with only the
 * columns a card or row shows. The failure message is read whole, since the status rules and
 * the tickets look at all of it; the service cuts it once they have. Report order, by id, on the
 * (run_id, ...) indexes of migrations/0002_results.sql.
 */

/** The frontend card's columns, start_time for the history anchors, the last screenshot's key. */
export async function listFrontendViewRows(db: Db, runId: number) {
  const rows = await resultsWithLastShot(db)
    // The facts a card shows, the row's own or its tuple's (migration 0222).
    .leftJoin("result_facts as facts", "facts.id", "results.facts_id")
    .select([
      "results.id",
      "results.test_run_test_id",
      "results.test_id",
      namesOfResult("results", "name").as("name"),
      "results.title",
      "results.scenario",
      "results.status",
      "results.flaky",
      "results.duration_ms",
      "results.tags",
      "results.error_message",
      "results.start_time",
    ])
    .select(factsOfResult("results", ["nora_site", "chrome_version", "platform", "commit_hash"]))
    .select("shot.object_key as screenshot")
    .where("results.run_id", "=", runId)
    .where("results.run_at", "=", runAtOf(runId))
    .where("results.is_final", "=", true)
    .orderBy("results.id")
    .execute();
  for (const row of rows) {
    row.id = Number(row.id);
    row.test_id = Number(row.test_id);
  }
  return rows;
}
export type FrontendViewDbRow = Awaited<ReturnType<typeof listFrontendViewRows>>[number];

/**
 * The backend row's columns. Of the message only the status rules and a pending result's reason
 * need anything, so a passed result's is not read; the rest of the failure (name, stack, log,
 * script) is read when a row opens (GET /v1/api-test-detail).
 */
export async function listBackendViewRows(db: Db, runId: number) {
  const rows = await db.kysely
    .selectFrom("results")
    .select([
      "id",
      "test_run_test_id",
      "test_id",
      namesOfResult("results", "name").as("name"),
      "title",
      "scenario",
      "status",
      "attempt",
      "duration_ms",
      "tags",
      "start_time",
    ])
    .select(
      sql<string | null>`CASE WHEN status <> 'passed' THEN error_message END`.as("error_message"),
    )
    .where("run_id", "=", runId)
    .where("run_at", "=", runAtOf(runId))
    .where("is_final", "=", true)
    .orderBy("id")
    .execute();
  for (const row of rows) {
    row.id = Number(row.id);
    row.test_id = Number(row.test_id);
  }
  return rows;
}
export type BackendViewDbRow = Awaited<ReturnType<typeof listBackendViewRows>>[number];
