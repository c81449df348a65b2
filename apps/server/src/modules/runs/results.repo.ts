import { sql } from "kysely";
import type { Db } from "../../db/pool.js";
import { withIds } from "./run-list.repo.js";
import {
  everyFactOfResult,
  FACT_COLUMNS,
  factsOfResult,
  namesOfResult,
  runAtOf,
  stepsOfResult,
  textOfResult,
} from "../../db/results-sql.js";

/**
 * Reads of a run's results and what hangs off each (attachments, API requests): the run detail's
 * list, one result whole, the screenshots of a range of results. node-postgres returns bigint
 * columns as strings, so ids are turned into numbers here, once.
 */

/**
 * Columns of a result shared by the frontend and backend lists (no steps, no attachments); its
 * name and file are read with namesOf (its own, else its test's).
 */
const RESULT_COLUMNS = [
  "id",
  "test_run_test_id",
  "test_id",
  "attempt",
  "is_final",
  "flaky",
  "status",
  "title",
  "scenario",
  "error_message",
  "tags",
  "start_time",
  "end_time",
  "duration_ms",
] as const;

const BACKEND_RESULT_COLUMNS = [...RESULT_COLUMNS, "error_name", "body"] as const;

/** The run facts each family shows (its own or its tuple's, migration 0222: factsOfResult). */
const FRONTEND_FACTS = FACT_COLUMNS.filter((column) => column !== "baseurl");
const BACKEND_FACTS = ["branch", "baseurl"] as const;

/** A result's name and file, its own or its test's (db/results-sql.ts). */
const namesOf = () => [
  namesOfResult("results", "name").as("name"),
  namesOfResult("results", "file").as("file"),
];

function withResultIds<T extends { id: number; test_id: number }>(row: T): T {
  row.id = Number(row.id);
  row.test_id = Number(row.test_id);
  return row;
}

/**
 * A result timestamp as the text Date.toISOString gives for it: UTC, milliseconds truncated
 * (to_char's MS truncates, as a Date drops microseconds), "Z". Formatting it in SQL spares
 * node-postgres a Date per value that the mapper only turned into this text: about a tenth of
 * the run detail's time on a 14,000-result run. Same text for years 1 to 9999; outside them,
 * and for 'infinity', the old path answered 500 (zod refused its text, or toISOString threw).
 */
function isoText<C extends "start_time" | "end_time">(column: C) {
  const utc = sql`${sql.ref(`results.${column}`)} AT TIME ZONE 'UTC'`;
  return sql<string | null>`to_char(${utc}, ${sql.lit('YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')})`.as(
    column,
  );
}

/** The frontend list's columns but the two timestamps, which isoText reads. */
const FRONTEND_LIST_COLUMNS = RESULT_COLUMNS.filter(
  (column) => column !== "start_time" && column !== "end_time",
);

/**
 * The last image attachment (a card's screenshot) of each result whose id is in [fromId, toId],
 * by result id: one scan of attachments_result_idx over a run's ids (a run's results take ids in
 * blocks, so the range holds few others; the caller keeps its own) instead of a probe and sort
 * per result, ~100 ms for 100,000 results even when the run has no attachment at all.
 */
export async function screenshotsBetween(
  db: Db,
  fromId: number,
  toId: number,
): Promise<Map<number, string>> {
  const rows = await db.kysely
    .selectFrom("attachments")
    .distinctOn("result_id")
    .select([sql<number>`result_id::float8`.as("result_id"), "object_key"])
    .where("result_id", ">=", fromId)
    .where("result_id", "<=", toId)
    .where("content_type", "like", "image/%")
    .orderBy("result_id")
    .orderBy("id", "desc")
    .execute();
  return new Map(rows.map((row) => [row.result_id, row.object_key]));
}

/**
 * A frontend run's results, every attempt, in report order (found by the unique index on
 * (run_id, test_run_test_id), sorted by id), each with the object key of its last image
 * attachment (screenshotsBetween). Timestamps come as ISO text. With `testId`, only that test's
 * attempts.
 */
export async function listFrontendResults(db: Db, runId: number, testId?: number) {
  const rows = await db.kysely
    .selectFrom("results")
    .leftJoin("result_facts as facts", "facts.id", "results.facts_id")
    .select(FRONTEND_LIST_COLUMNS.map((column) => `results.${column}` as const))
    .select([isoText("start_time"), isoText("end_time")])
    .select(namesOf())
    .select(factsOfResult("results", FRONTEND_FACTS))
    // Set below, in place: a spread copy of each of 100,000 rows costs more than the read.
    .select(sql<string | null>`NULL::text`.as("screenshot"))
    .where("results.run_id", "=", runId)
    .where("results.run_at", "=", runAtOf(runId))
    .$if(testId !== undefined, (qb) => qb.where("results.test_id", "=", testId!))
    .orderBy("results.id")
    .execute();
  rows.forEach(withResultIds);
  if (rows.length > 0) {
    const shots = await screenshotsBetween(db, rows[0]!.id, rows.at(-1)!.id);
    for (const row of rows) row.screenshot = shots.get(row.id) ?? null;
  }
  return rows;
}
export type FrontendResultRow = Awaited<ReturnType<typeof listFrontendResults>>[number];

/** One result with everything stored about it (steps, script, logs). */
export async function findResult(db: Db, runId: number, testRunTestId: string) {
  const row = await db.kysely
    .selectFrom("results")
    .selectAll()
    // The steps wherever they are stored, and the names wherever they are (db/results-sql.ts):
    // these columns, after the ones selectAll() reads, take their names in the row.
    .select([
      namesOfResult("results", "name").as("name"),
      namesOfResult("results", "suite_path").as("suite_path"),
      namesOfResult("results", "file").as("file"),
      stepsOfResult("results").as("json_steps"),
      stepsOfResult("results", true).as("json_before_steps"),
      textOfResult("results", "stack").as("error_stack"),
      textOfResult("results", "log").as("console_log"),
      ...everyFactOfResult("results"),
    ])
    .where("run_id", "=", runId)
    .where("run_at", "=", runAtOf(runId))
    .where("test_run_test_id", "=", testRunTestId)
    .executeTakeFirst();
  return row && withResultIds(row);
}
export type FullResultRow = NonNullable<Awaited<ReturnType<typeof findResult>>>;

/** Every attachment of a result (images and the rest), in the order they were recorded. */
export async function listAttachments(db: Db, resultId: number) {
  const rows = await db.kysely
    .selectFrom("attachments")
    .select([
      "id",
      "name",
      "description",
      "object_key",
      "taken_at",
      "step_index",
      "content_type",
      "size",
    ])
    .where("result_id", "=", resultId)
    .orderBy("id")
    .execute();
  return rows.map(withIds);
}
export type AttachmentRow = Awaited<ReturnType<typeof listAttachments>>[number];

/** A backend run's results, every attempt, in report order (sorted by id); or one test's. */
export async function listBackendResults(db: Db, runId: number, testId?: number) {
  const rows = await db.kysely
    .selectFrom("results")
    .leftJoin("result_facts as facts", "facts.id", "results.facts_id")
    .select(BACKEND_RESULT_COLUMNS.map((column) => `results.${column}` as const))
    .select(namesOf())
    .select(factsOfResult("results", BACKEND_FACTS))
    .select([
      textOfResult("results", "stack").as("error_stack"),
      textOfResult("results", "log").as("console_log"),
    ])
    .where("results.run_id", "=", runId)
    .where("results.run_at", "=", runAtOf(runId))
    .$if(testId !== undefined, (qb) => qb.where("results.test_id", "=", testId!))
    .orderBy("results.id")
    .execute();
  return rows.map(withResultIds);
}
export type BackendResultRow = Awaited<ReturnType<typeof listBackendResults>>[number];

/** An API request's columns in the lists (a result's, a run's page). */
export const API_REQUEST_COLUMNS = ["id", "method", "url", "status", "response_time_ms"] as const;

/** The API requests one result made, in order (api_requests_result_idx). */
export async function listResultApiRequests(db: Db, resultId: number) {
  const rows = await db.kysely
    .selectFrom("api_requests")
    .select(API_REQUEST_COLUMNS)
    .where("result_id", "=", resultId)
    .orderBy("id")
    .execute();
  return rows.map(withIds);
}
export type ApiRequestRow = Awaited<ReturnType<typeof listResultApiRequests>>[number];
