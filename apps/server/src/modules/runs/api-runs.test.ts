import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../../../test/build-test-app.js";
import {
  insertApiRequests,
  insertResult,
  insertRun,
  insertTest,
  tagTest,
  type ResultRef,
  type RunRef,
} from "../../../test/factories.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";

let database: TestDatabase;
let app: FastifyInstance;
let run: RunRef;
let failing: ResultRef;
let passing: ResultRef;

beforeAll(async () => {
  database = await createTestDatabase();
  app = (await buildTestApp(database.db)).app;
  const db = database.db;
  run = await insertRun(db, {
    test_run_key: "api-1",
    family: "backend",
    env: "stage",
    total: 2,
    passed: 1,
    failed: 1,
  });
  const test = await insertTest(db, { family: "backend", title: "GET /patients" });
  failing = await insertResult(db, run, test, {
    test_run_test_id: "patients#0",
    name: "lists patients",
    title: "GET /patients",
    scenario: "patients",
    baseurl: "https://api.stage.example.com/",
    file: "test/patients.spec.ts",
    status: "failed",
    error_name: "AssertionError",
    error_message: "expected 200, got 500",
    error_stack: "AssertionError: expected 200\n    at patients.spec.ts:12:5",
    console_log: "calling /patients",
    body: "it('lists patients', ...)",
    tags: ["@api"],
    branch: "develop",
    start_time: "2025-05-01T12:00:00Z",
    end_time: "2025-05-01T12:00:01Z",
  });
  await insertApiRequests(db, failing, [
    { method: "POST", url: "/auth", status: 200, response_time_ms: 12.5 },
    { method: "GET", url: "/patients", status: 500, response_time_ms: 340 },
  ]);
  passing = await insertResult(db, run, await insertTest(db, { family: "backend" }), {
    status: "passed",
  });
});
afterAll(async () => {
  await app.close();
  await database.drop();
});

async function get(url: string) {
  return app.inject({ method: "GET", url });
}

/** The fields deriveStatus and extractTickets decide. */
function pick(result: object) {
  const { status, derived_status, pending_reason, tickets } = result as Record<string, unknown>;
  return { status, derived_status, pending_reason, tickets };
}

describe("GET /v1/api-test-run/{key}", () => {
  it("answers the run and its results with error, console log and script", async () => {
    const urls = ["/v1/api-test-run/api-1", "/v1/api-test-run/api-1/?force=true"];
    for (const url of urls) {
      const res = await get(url);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.run).toMatchObject({ test_run_key: "api-1", env: "stage", failed: 1 });
      expect(body.results).toHaveLength(2);
      expect(body.results[0]).toEqual({
        id: failing.id,
        test_run_key: "api-1",
        test_run_test_id: "patients#0",
        test_id: failing.test_id,
        name: "lists patients",
        title: "GET /patients",
        scenario: "patients",
        baseurl: "https://api.stage.example.com/",
        file: "test/patients.spec.ts",
        status: "failed",
        passed: false,
        derived_status: "failed",
        pending_reason: null,
        tickets: [],
        error_message: {
          name: "AssertionError",
          message: "expected 200, got 500",
          stack: "AssertionError: expected 200\n    at patients.spec.ts:12:5",
        },
        consoleLog: "calling /patients",
        body: "it('lists patients', ...)",
        tags: ["@api"],
        branch: "develop",
        start_time: "2025-05-01T12:00:00.000Z",
        end_time: "2025-05-01T12:00:01.000Z",
        duration_ms: 1000,
        attempt: 0,
        is_final: true,
        flaky: false,
      });
      expect(body.results[1]).toMatchObject({ id: passing.id, passed: true, error_message: null });
    }
  });

  it("derives each result's status as core does: a 'Pending reason' failure is skipped", async () => {
    const db = database.db;
    const pendingRun = await insertRun(db, { test_run_key: "api-pending", family: "backend" });
    const flakyTest = await insertTest(db, { family: "backend" });
    // '@unstable' is a frontend rule: the backend dialog has no Unstable box (spec §2).
    await tagTest(db, "@unstable", flakyTest);
    await insertResult(db, pendingRun, await insertTest(db, { family: "backend" }), {
      status: "failed",
      error_name: "PendingError",
      error_message: "Pending reason == Blocked by nxl-5: sandbox down",
    });
    await insertResult(db, pendingRun, flakyTest, {
      status: "failed",
      error_message: "expected 200, got 502 (NXL-77)",
    });
    const results = (await get("/v1/api-test-run/api-pending")).json().results;
    expect(results.map((r: object) => pick(r))).toEqual([
      {
        status: "failed",
        derived_status: "skipped",
        pending_reason: "Blocked by nxl-5: sandbox down",
        tickets: ["NXL-5"],
      },
      { status: "failed", derived_status: "failed", pending_reason: null, tickets: ["NXL-77"] },
    ]);
    const detail = await get(`/v1/api-test-detail/api-pending/${results[0].test_run_test_id}`);
    expect(pick(detail.json())).toEqual(pick(results[0]));
  });

  it("answers 404 for an unknown key or a frontend run", async () => {
    await insertRun(database.db, { test_run_key: "ui-1" });
    for (const key of ["nope", "ui-1"]) {
      const res = await get(`/v1/api-test-run/${key}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toEqual({
        code: "not_found",
        message: `No API test run with key ${key}.`,
      });
    }
  });
});

describe("GET /v1/api-test-detail/{key}/{id}", () => {
  it("answers the result with its API requests in order", async () => {
    const res = await get("/v1/api-test-detail/api-1/patients%230");
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ id: failing.id, consoleLog: "calling /patients" });
    expect(body.apiRequests).toEqual([
      { id: expect.any(Number), method: "POST", url: "/auth", status: 200, responsetime: 12.5 },
      { id: expect.any(Number), method: "GET", url: "/patients", status: 500, responsetime: 340 },
    ]);
    expect(body.apiRequests[0].id).toBeLessThan(body.apiRequests[1].id);
    const none = (await get(`/v1/api-test-detail/api-1/${passing.test_run_test_id}`)).json();
    expect(none.apiRequests).toEqual([]);
    // Each test ran once: its attempts are itself alone, not the other tests of the run.
    expect(body.attempts.map((a: { id: number }) => a.id)).toEqual([failing.id]);
    expect(none.attempts.map((a: { id: number }) => a.id)).toEqual([passing.id]);
  });

  it("answers 404 for an unknown result", async () => {
    const res = await get("/v1/api-test-detail/api-1/nope");
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe("No test nope in test run api-1.");
  });
});

describe("GET /v1/api-test-run/api-log/{key}", () => {
  let big: RunRef;
  beforeAll(async () => {
    big = await insertRun(database.db, { test_run_key: "api-big", family: "backend" });
    const test = await insertTest(database.db, { family: "backend" });
    const first = await insertResult(database.db, big, test);
    const second = await insertResult(database.db, big, test);
    await insertApiRequests(database.db, first, 6000);
    await insertApiRequests(database.db, second, 4050);
  });

  it("pages the run's requests by id, 100 by default", async () => {
    const body = (await get("/v1/api-test-run/api-log/api-big")).json();
    expect(body).toMatchObject({ total: 10_050, page: 1, page_size: 100 });
    expect(body.items).toHaveLength(100);
    expect(body.items[0]).toEqual({
      id: expect.any(Number),
      method: "GET",
      url: "/api/items/1",
      status: 200,
      responsetime: 1,
    });
    const ids = body.items.map((item: { id: number }) => item.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it("answers 10000 rows a page, and the rest on page 2", async () => {
    const page1 = (await get("/v1/api-test-run/api-log/api-big?page_size=10000")).json();
    expect(page1.items).toHaveLength(10_000);
    expect(page1.items[5999].url).toBe("/api/items/6000");
    expect(page1.items[6000].url).toBe("/api/items/1");
    const page2 = (await get("/v1/api-test-run/api-log/api-big?page_size=10000&page=2")).json();
    expect(page2).toMatchObject({ total: 10_050, page: 2, page_size: 10_000 });
    expect(page2.items.map((i: { url: string }) => i.url)).toEqual(
      Array.from({ length: 50 }, (_, i) => `/api/items/${4001 + i}`),
    );
    expect(page2.items[0].id).toBeGreaterThan(page1.items[9999].id);
    const thousands = (await get("/v1/api-test-run/api-log/api-big?page_size=1000&page=3")).json();
    expect(thousands.items[0].url).toBe("/api/items/2001");
  });

  it("refuses other page sizes, and answers 404 for an unknown run", async () => {
    for (const size of [15, 500, 100000]) {
      const res = await get(`/v1/api-test-run/api-log/api-big?page_size=${size}`);
      expect(res.statusCode).toBe(400);
    }
    const res = await get("/v1/api-test-run/api-log/nope");
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe("No API test run with key nope.");
    const run1 = (await get("/v1/api-test-run/api-log/api-1")).json();
    expect(run1.items.map((i: { url: string }) => i.url)).toEqual(["/auth", "/patients"]);
  });
});
