import type { Insertable } from "kysely";
import { sql } from "kysely";
import type { Db } from "../src/db/pool.js";
import type {
  ApiRequestsTable,
  AttachmentsTable,
  LoadStatsTable,
  ResultsTable,
  RunsTable,
  StepRow,
  TestsTable,
} from "../src/db/schema.js";

/**
 * Rows for read-route tests, written straight into the database with Kysely (ingestion through
 * the real endpoint is tested by the ingest module). Every helper fills the required columns
 * with unique defaults; pass only what the test is about. Ids come back as numbers.
 */

let sequence = 0;
const next = () => ++sequence;

type Overrides<T> = Partial<Insertable<T>>;
type ResultOverrides = Omit<Overrides<ResultsTable>, "json_steps" | "json_before_steps"> & {
  json_steps?: StepRow[];
  json_before_steps?: StepRow[];
};

export interface RunRef {
  id: number;
  test_run_key: string;
}
export interface TestRef {
  id: number;
  title: string;
}
export interface ResultRef {
  id: number;
  run_id: number;
  test_id: number;
  test_run_test_id: string;
}

export async function insertRun(db: Db, fields: Overrides<RunsTable> = {}): Promise<RunRef> {
  const n = next();
  const row = await db.kysely
    .insertInto("runs")
    .values({ test_run_key: `run-${n}`, family: "frontend", test_run_name: `Run ${n}`, ...fields })
    .returning(["id", "test_run_key"])
    .executeTakeFirstOrThrow();
  return { id: Number(row.id), test_run_key: row.test_run_key };
}

/** A catalogue test; its id comes from test_id_seq unless given. */
export async function insertTest(db: Db, fields: Overrides<TestsTable> = {}): Promise<TestRef> {
  const n = next();
  const row = await db.kysely
    .insertInto("tests")
    .values({
      id: sql<number>`nextval('test_id_seq')`,
      family: "frontend",
      title: `Test ${n}`,
      ...fields,
    })
    .returning(["id", "title"])
    .executeTakeFirstOrThrow();
  return { id: Number(row.id), title: row.title };
}

export async function insertResult(
  db: Db,
  run: RunRef,
  test: TestRef,
  fields: ResultOverrides = {},
): Promise<ResultRef> {
  const n = next();
  const { json_steps = [], json_before_steps = [], ...rest } = fields;
  const row = await db.kysely
    .insertInto("results")
    .values({
      run_id: run.id,
      run_at: sql<Date>`(SELECT created_at FROM runs WHERE id = ${run.id})`,
      test_id: test.id,
      test_run_test_id: `t-${n}`,
      attempt: 0,
      is_final: true,
      flaky: false,
      status: "passed",
      name: test.title,
      suite_path: [],
      tags: [],
      duration_ms: 1000,
      ...rest,
      json_steps: JSON.stringify(json_steps),
      json_before_steps: JSON.stringify(json_before_steps),
    })
    .returning(["id", "test_run_test_id"])
    .executeTakeFirstOrThrow();
  return {
    id: Number(row.id),
    run_id: run.id,
    test_id: test.id,
    test_run_test_id: row.test_run_test_id,
  };
}

export async function insertAttachment(
  db: Db,
  result: ResultRef,
  fields: Overrides<AttachmentsTable> = {},
): Promise<{ id: number; object_key: string }> {
  const n = next();
  const row = await db.kysely
    .insertInto("attachments")
    .values({
      result_id: result.id,
      name: `screenshot-${n}.png`,
      content_type: "image/png",
      object_key: `objects/${n}.png`,
      size: 100,
      ...fields,
    })
    .returning(["id", "object_key"])
    .executeTakeFirstOrThrow();
  return { id: Number(row.id), object_key: row.object_key };
}

type ApiRequestFields = Omit<Insertable<ApiRequestsTable>, "run_id" | "result_id">;

/** API requests of a backend result, in the order given; `count` fills in numbered ones. */
export async function insertApiRequests(
  db: Db,
  result: ResultRef,
  requests: ApiRequestFields[] | number,
): Promise<void> {
  const list: ApiRequestFields[] =
    typeof requests === "number"
      ? Array.from({ length: requests }, (_, i) => ({
          method: "GET",
          url: `/api/items/${i + 1}`,
          status: 200,
          response_time_ms: i + 1,
        }))
      : requests;
  const rows = list.map((r) => ({ ...r, run_id: result.run_id, result_id: result.id }));
  // Bounded so a big batch stays under PostgreSQL's 65,535 bind parameters.
  for (let at = 0; at < rows.length; at += 5000) {
    await db.kysely
      .insertInto("api_requests")
      .values(rows.slice(at, at + 5000))
      .execute();
  }
}

export async function insertLoadStat(
  db: Db,
  run: RunRef,
  fields: Overrides<LoadStatsTable> = {},
): Promise<{ id: number }> {
  const n = next();
  const row = await db.kysely
    .insertInto("load_stats")
    .values({
      run_id: run.id,
      method: "GET",
      name: `/endpoint/${n}`,
      requests: 100,
      failures: 0,
      requests_per_s: 10,
      failures_per_s: 0,
      aggregated: false,
      ...fields,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: Number(row.id) };
}

/** Puts a test in a dynamic tag, creating the tag if needed ('@unstable' already exists). */
export async function tagTest(db: Db, tagName: string, test: TestRef): Promise<void> {
  await db.kysely
    .insertInto("tags")
    .values({ name: tagName })
    .onConflict((oc) => oc.column("name").doNothing())
    .execute();
  const tag = await db.kysely
    .selectFrom("tags")
    .select("id")
    .where("name", "=", tagName)
    .executeTakeFirstOrThrow();
  await db.kysely
    .insertInto("tagged_tests")
    .values({ tag_id: tag.id, test_id: test.id, test_name: test.title })
    .onConflict((oc) => oc.columns(["tag_id", "test_id"]).doNothing())
    .execute();
}
