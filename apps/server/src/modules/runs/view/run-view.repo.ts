import { sql, type InferResult } from "kysely";
import type { Db } from "../../../db/pool.js";
import { eachRow } from "../../../db/each-row.js";
import { factsOfResult, namesOfResult, runAtOf } from "../../../db/results-sql.js";

/**
 * Reads behind the run view (view.service.ts): the final results of one run, with only the
 * columns a card or row shows. The failure message is read whole, since the status rules and
 * the tickets look at all of it; the service cuts it once they have. In no order: sorted by id,
 * PostgreSQL sent nothing before it had read the whole run (~0.4 s of a 100,000-result run's
 * first open, right after its upload), while unsorted its rows are built as they arrive; the
 * build puts them in report order (ViewResultsBuilder).
 */

/** A result's id or test id as a number (float8: exact below 2^53), not bigint's text. */
const asNumber = (column: string) => sql<number>`${sql.ref(column)}::float8`;

/** Its start in ms since the epoch (what a Date holds), not a timestamp to parse. */
const startMs = (column: string) =>
  sql<number | null>`floor(extract(epoch from ${sql.ref(column)}) * 1000)::float8`;

/**
 * The frontend card's columns and start time (for the history anchors), row by row as they
 * arrive (eachRow), in no order: a 100,000-result run is never held whole. The card's
 * screenshot is read apart (runs.repo.ts screenshotsBetween).
 */
export function eachFrontendViewRow(
  db: Db,
  runId: number,
  onRow: (row: FrontendViewDbRow) => void,
): Promise<number> {
  return eachRow(db, frontendViewRows(db, runId), onRow);
}

function frontendViewRows(db: Db, runId: number) {
  return (
    db.kysely
      .selectFrom("results")
      // The facts a card shows, the row's own or its tuple's (migration 0222).
      .leftJoin("result_facts as facts", "facts.id", "results.facts_id")
      .select([
        asNumber("results.id").as("id"),
        "results.test_run_test_id",
        asNumber("results.test_id").as("test_id"),
        namesOfResult("results", "name").as("name"),
        "results.title",
        "results.scenario",
        "results.status",
        "results.flaky",
        "results.duration_ms",
        "results.tags",
        "results.error_message",
        startMs("results.start_time").as("start_ms"),
      ])
      .select(factsOfResult("results", ["nora_site", "chrome_version", "platform", "commit_hash"]))
      .where("results.run_id", "=", runId)
      .where("results.run_at", "=", runAtOf(runId))
      .where("results.is_final", "=", true)
  );
}
export type FrontendViewDbRow = InferResult<ReturnType<typeof frontendViewRows>>[number];

/**
 * The backend row's columns, row by row as eachFrontendViewRow. Of the message only the status
 * rules and a pending result's reason need anything, so a passed result's is not read; the rest
 * of the failure (name, stack, log, script) is read when a row opens (GET /v1/api-test-detail).
 */
export function eachBackendViewRow(
  db: Db,
  runId: number,
  onRow: (row: BackendViewDbRow) => void,
): Promise<number> {
  return eachRow(db, backendViewRows(db, runId), onRow);
}

function backendViewRows(db: Db, runId: number) {
  return db.kysely
    .selectFrom("results")
    .select([
      asNumber("id").as("id"),
      "test_run_test_id",
      asNumber("test_id").as("test_id"),
      namesOfResult("results", "name").as("name"),
      "title",
      "scenario",
      "status",
      "attempt",
      "duration_ms",
      "tags",
      startMs("start_time").as("start_ms"),
    ])
    .select(
      sql<string | null>`CASE WHEN status <> 'passed' THEN error_message END`.as("error_message"),
    )
    .where("run_id", "=", runId)
    .where("run_at", "=", runAtOf(runId))
    .where("is_final", "=", true);
}
export type BackendViewDbRow = InferResult<ReturnType<typeof backendViewRows>>[number];
