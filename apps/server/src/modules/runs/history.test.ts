import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../../../test/build-test-app.js";
import {
  insertResult,
  insertRun,
  insertTest,
  tagTest,
  type TestRef,
} from "../../../test/factories.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { planWithoutScans } from "../../../test/query-plan.js";
import { topFailsQuery } from "./history.repo.js";

let database: TestDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  database = await createTestDatabase();
  app = (await buildTestApp(database.db)).app;
});
afterAll(async () => {
  await app.close();
  await database.drop();
});

async function get(url: string) {
  return app.inject({ method: "GET", url });
}

describe("GET /v1/history/{id}", () => {
  let test: TestRef;
  beforeAll(async () => {
    const db = database.db;
    test = await insertTest(db, { id: 777, title: "Consent form" });
    await tagTest(db, "@unstable", test);
    const other = await insertTest(db);
    const legacy = await insertRun(db, { test_run_key: "legacy-1", nora_site: "dev1" });
    const nextDev = await insertRun(db, {
      test_run_key: "next-dev1",
      nora_site: "dev1",
      is_next_gen: true,
    });
    const nextStage = await insertRun(db, {
      test_run_key: "next-stage",
      nora_site: "stage",
      is_next_gen: true,
    });
    const nextDev2 = await insertRun(db, {
      test_run_key: "next-dev1-b",
      nora_site: "dev1",
      is_next_gen: true,
    });
    const undated = await insertRun(db, { test_run_key: "undated" });
    await insertResult(db, legacy, test, {
      test_run_test_id: "consent form#0",
      status: "passed",
      start_time: "2024-01-01T09:00:00Z",
    });
    await insertResult(db, nextDev, test, {
      test_run_test_id: "c1",
      status: "failed",
      error_message: "boom",
      start_time: "2024-01-02T09:00:00Z",
    });
    await insertResult(db, nextStage, test, {
      test_run_test_id: "c2",
      status: "skipped",
      start_time: "2024-01-03T09:00:00Z",
    });
    // A retried attempt is not history; its final attempt is.
    await insertResult(db, nextDev2, test, {
      test_run_test_id: "c3#0",
      status: "failed",
      is_final: false,
      start_time: "2024-01-04T08:00:00Z",
    });
    await insertResult(db, nextDev2, test, {
      test_run_test_id: "c3#1",
      status: "failed",
      error_message: "Pending reason == blocked",
      start_time: "2024-01-04T09:00:00Z",
    });
    await insertResult(db, undated, test, { test_run_test_id: "c4", status: "passed" });
    await insertResult(db, nextDev, other, {
      status: "failed",
      start_time: "2024-02-01T00:00:00Z",
    });
  });

  it("answers the test's final results newest first, undated last", async () => {
    const res = await get(`/v1/history/${test.id}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.map((e: { test_run_test_id: string }) => e.test_run_test_id)).toEqual([
      "c3#1",
      "c2",
      "c1",
      "consent form#0",
      "c4",
    ]);
    expect(body.map((e: { status: string }) => e.status)).toEqual([
      "other",
      "other",
      "failed",
      "passed",
      "passed",
    ]);
    expect(body[3]).toEqual({
      testId: 777,
      url: "/test_runs/legacy-1/consent%20form%230",
      status: "passed",
      date: "2024-01-01",
      passed: true,
      start_time: "2024-01-01T09:00:00.000Z",
      test_run_key: "legacy-1",
      test_run_test_id: "consent form#0",
    });
    expect(body[2]).toMatchObject({
      status: "failed",
      passed: false,
      url: "/test_runs/next-dev1/c1",
    });
    expect(body[4]).toMatchObject({ date: null, start_time: null });
  });

  it("links an API test's result to the Backend results dialog (be=1)", async () => {
    const db = database.db;
    const apiTest = await insertTest(db, { family: "backend" });
    const run = await insertRun(db, { test_run_key: "api-nightly", family: "backend" });
    await insertResult(db, run, apiTest, { test_run_test_id: "get users", status: "passed" });
    expect((await get(`/v1/history/${apiTest.id}`)).json()).toMatchObject([
      { url: "/test_runs/api-nightly/get%20users?be=1", test_run_key: "api-nightly" },
    ]);
  });

  it("filters to NextGen runs of a site, or to Legacy runs", async () => {
    const dev1 = (await get(`/v1/history/${test.id}?isNextGen=true&noraSite=dev1`)).json();
    expect(dev1.map((e: { test_run_key: string }) => e.test_run_key)).toEqual([
      "next-dev1-b",
      "next-dev1",
    ]);
    const nextGen = (await get(`/v1/history/${test.id}?isNextGen=true`)).json();
    expect(nextGen).toHaveLength(3);
    const legacy = (await get(`/v1/history/${test.id}?isNextGen=false`)).json();
    expect(legacy.map((e: { test_run_key: string }) => e.test_run_key)).toEqual([
      "legacy-1",
      "undated",
    ]);
  });

  it("keeps to the limit", async () => {
    const body = (await get(`/v1/history/${test.id}?limit=2`)).json();
    expect(body.map((e: { test_run_test_id: string }) => e.test_run_test_id)).toEqual([
      "c3#1",
      "c2",
    ]);
    expect((await get(`/v1/history/${test.id}?limit=1001`)).statusCode).toBe(400);
    expect((await get(`/v1/history/${test.id}?limit=0`)).statusCode).toBe(400);
  });

  it("orders equal start times newest id first, and fills the limit with undated results last", async () => {
    const db = database.db;
    const tied = await insertTest(db);
    const run = await insertRun(db);
    const at = "2024-03-01T00:00:00Z";
    for (const id of ["u1", "t1", "u2", "t2", "d1"]) {
      const start_time = id.startsWith("t") ? at : id === "d1" ? "2024-02-01T00:00:00Z" : null;
      await insertResult(db, run, tied, { test_run_test_id: id, start_time });
    }
    const ids = async (limit: number) =>
      (await get(`/v1/history/${tied.id}?limit=${limit}`))
        .json()
        .map((e: { test_run_test_id: string }) => e.test_run_test_id);
    expect(await ids(100)).toEqual(["t2", "t1", "d1", "u2", "u1"]);
    expect(await ids(4)).toEqual(["t2", "t1", "d1", "u2"]);
    expect(await ids(2)).toEqual(["t2", "t1"]);
  });

  it("answers 400 for a non-numeric id and 404 for an unknown test", async () => {
    for (const id of ["abc", "12a", "-1", "1e3"]) {
      const res = await get(`/v1/history/${id}`);
      expect(res.statusCode, id).toBe(400);
      expect(res.json().error.code).toBe("invalid_request");
    }
    const res = await get("/v1/history/999999999");
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toEqual({
      code: "not_found",
      message: "No test with id 999999999.",
    });
    const known = await insertTest(database.db);
    expect((await get(`/v1/history/${known.id}`)).json()).toEqual([]);
  });
});

describe("GET /v1/fails", () => {
  const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

  it("counts final failures of the last 2 months per test, most first, ties by id", async () => {
    const db = database.db;
    const run = await insertRun(db);
    const [a, b, c, d, e, f] = [
      await insertTest(db, { id: 9001, title: "A" }),
      await insertTest(db, { id: 9002, title: "B" }),
      await insertTest(db, { id: 9003, title: "C" }),
      await insertTest(db, { id: 9004, title: "D" }),
      await insertTest(db, { id: 9005, title: "E" }),
      await insertTest(db, { id: 9006, title: "F" }),
    ];
    const fail = (test: TestRef, days: number, extra = {}) =>
      insertResult(db, run, test, { status: "failed", start_time: daysAgo(days), ...extra });
    for (const days of [1, 10, 50]) await fail(a, days);
    // C is made to tie with B: inserted first, it still comes after B by id.
    for (const days of [2, 3]) await fail(c, days);
    for (const days of [1, 55]) await fail(b, days);
    // Older than 2 months: not counted (B would lead with them).
    for (const days of [95, 100, 120, 150, 200]) await fail(b, days);
    for (const days of [95, 100]) await fail(e, days);
    // Non-final attempts and passes never count.
    for (const days of [1, 2, 3, 4]) await fail(d, days, { is_final: false });
    await insertResult(db, run, d, { status: "passed", start_time: daysAgo(1) });
    // A failure with 'Pending reason' is shown as skipped: F would lead, A would have 4.
    const pending = { error_message: "Error: Pending reason == waiting for NXL-1234" };
    for (const days of [1, 2, 3, 4, 5]) await fail(f, days, pending);
    await fail(a, 6, pending);

    const res = await get("/v1/fails");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { id: 9001, title: "A", suite_path: [], file: null, fail_count: 3 },
      { id: 9002, title: "B", suite_path: [], file: null, fail_count: 2 },
      { id: 9003, title: "C", suite_path: [], file: null, fail_count: 2 },
    ]);
    expect((await get("/v1/fails?limit=2")).json()).toEqual([
      { id: 9001, title: "A", suite_path: [], file: null, fail_count: 3 },
      { id: 9002, title: "B", suite_path: [], file: null, fail_count: 2 },
    ]);
  });

  it("tells same-named tests apart by their suite path and file", async () => {
    const db = database.db;
    const run = await insertRun(db);
    const patient = await insertTest(db, {
      title: "Patient login",
      file: "features/patient.feature",
    });
    const staff = await insertTest(db, { title: "Patient login", file: "features/staff.feature" });
    const fail = (test: TestRef, suite: string[]) =>
      insertResult(db, run, test, {
        status: "failed",
        suite_path: suite,
        start_time: new Date().toISOString(),
      });
    for (let i = 0; i < 40; i++) await fail(patient, ["Login", "Patient app"]);
    for (let i = 0; i < 39; i++) await fail(staff, ["Login", "Staff portal"]);

    const top = (await get("/v1/fails?limit=2")).json();
    expect(top).toEqual([
      {
        id: patient.id,
        title: "Patient login",
        suite_path: ["Login", "Patient app"],
        file: "features/patient.feature",
        fail_count: 40,
      },
      {
        id: staff.id,
        title: "Patient login",
        suite_path: ["Login", "Staff portal"],
        file: "features/staff.feature",
        fail_count: 39,
      },
    ]);
  });

  it("is counted on results_failed_time_idx alone, whose predicate it states", async () => {
    // Without the other indexes that can give a test's failures, the index is chosen only if the
    // query implies its predicate.
    const plan = await planWithoutScans(database.db, topFailsQuery(database.db, 2, 50).compile(), [
      "DROP INDEX results_failed_run_idx",
      "DROP INDEX results_latest_final_idx",
    ]);
    // Each month's partition has its own copy of the index (migration 0191).
    expect(plan).toMatch(/Index Only Scan using test_results_p\d{6}_start_time_test_id_idx on /);
  });

  it("refuses a limit above 500", async () => {
    expect((await get("/v1/fails?limit=501")).statusCode).toBe(400);
    expect((await get("/v1/fails?limit=500")).statusCode).toBe(200);
  });
});
