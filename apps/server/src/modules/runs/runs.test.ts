import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../../../test/build-test-app.js";
import {
  insertResult,
  insertRun,
  insertTest,
  tagTest,
  type RunRef,
} from "../../../test/factories.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";

let database: TestDatabase;
let app: FastifyInstance;

const minutes = (n: number) => new Date(Date.UTC(2025, 0, 1, 0, n));
const keysOf = (body: { items: { test_run_key: string }[] }) =>
  body.items.map((item) => item.test_run_key);

// 17 frontend runs f-01 (oldest) .. f-17 (newest); f-16 and f-17 share a created_at, so the
// higher id (f-17) comes first. Backend and load runs must never show in the frontend list.
const frontendKeys = Array.from({ length: 17 }, (_, i) => `f-${String(i + 1).padStart(2, "0")}`);
const newestFirst = [...frontendKeys].reverse();

beforeAll(async () => {
  database = await createTestDatabase();
  app = (await buildTestApp(database.db)).app;
  for (const [i, key] of frontendKeys.entries()) {
    await insertRun(database.db, { test_run_key: key, created_at: minutes(Math.min(i, 15)) });
  }
  await insertRun(database.db, { test_run_key: "b-1", family: "backend", created_at: minutes(99) });
  await insertRun(database.db, { test_run_key: "l-1", family: "load", created_at: minutes(99) });
});
afterAll(async () => {
  await app.close();
  await database.drop();
});

async function get(url: string) {
  return app.inject({ method: "GET", url });
}

describe("GET /v1/test-runs", () => {
  it("answers the first 15 frontend runs, newest first, ties by id", async () => {
    const res = await get("/v1/test-runs");
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ total: 17, page: 1, page_size: 15 });
    expect(keysOf(body)).toEqual(newestFirst.slice(0, 15));
  });

  it("answers page 2 and the other page sizes", async () => {
    const page2 = (await get("/v1/test-runs?page=2")).json();
    expect(keysOf(page2)).toEqual(["f-02", "f-01"]);
    expect(page2).toMatchObject({ total: 17, page: 2, page_size: 15 });

    const tens = (await get("/v1/test-runs?page=2&page_size=10")).json();
    expect(keysOf(tens)).toEqual(newestFirst.slice(10, 17));
    for (const size of [20, 30, 100]) {
      const body = (await get(`/v1/test-runs?page_size=${size}`)).json();
      expect(body.page_size).toBe(size);
      expect(body.items).toHaveLength(17);
    }
    const beyond = (await get("/v1/test-runs?page=9")).json();
    expect(beyond).toMatchObject({ items: [], total: 17, page: 9 });
  });

  it("refuses other page sizes and pages below 1 with 400", async () => {
    for (const query of ["page_size=25", "page_size=abc", "page_size=0", "page=0", "page=x"]) {
      const res = await get(`/v1/test-runs?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.code).toBe("invalid_request");
    }
    const res = await get("/v1/test-runs?page_size=25");
    expect(res.json().error.message).toContain("10|15|20|30|100");
  });

  it("accepts force=true, also in the spec's '/?force=true' form", async () => {
    for (const url of ["/v1/test-runs?force=true&page_size=10", "/v1/test-runs/?force=true"]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(keysOf(res.json()), url).toEqual(newestFirst.slice(0, res.json().page_size));
    }
    for (const url of ["/v1/api-test-runs/?force=true", "/v1/load-test-runs/?force=true"]) {
      expect((await get(url)).json().items.length, url).toBeGreaterThan(0);
    }
  });
});

describe("run lists of the other families", () => {
  it("lists backend runs with the backend fields only", async () => {
    const run = await insertRun(database.db, {
      test_run_key: "b-2",
      family: "backend",
      test_run_name: "api 2025-01-02",
      env: "stage",
      baseurl: "https://api.stage.example.com/",
      executor: "ci",
      branch: "main",
      commit: "abc123",
      is_china_region: true,
      total: 10,
      passed: 7,
      failed: 2,
      pending: 1,
      flaky: 1,
      duration_ms: 12_500,
      started_at: "2025-01-02T10:00:00Z",
      finished_at: "2025-01-02T10:00:12.500Z",
      created_at: new Date("2025-02-01T00:00:00Z"),
    });
    const res = await get("/v1/api-test-runs?force=true");
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ total: 2, page: 1, page_size: 15 });
    expect(keysOf(body)).toEqual([run.test_run_key, "b-1"]);
    expect(body.items[0]).toEqual({
      test_run_key: "b-2",
      test_run_name: "api 2025-01-02",
      env: "stage",
      baseurl: "https://api.stage.example.com/",
      executor: "ci",
      branch: "main",
      commit: "abc123",
      state: "finished",
      total: 10,
      passed: 7,
      failed: 2,
      pending: 1,
      flaky: 1,
      is_china_region: true,
      duration_ms: 12_500,
      started_at: "2025-01-02T10:00:00.000Z",
      finished_at: "2025-01-02T10:00:12.500Z",
      created_at: "2025-02-01T00:00:00.000Z",
    });
  });

  it("lists load runs with the load fields, and refuses other page sizes", async () => {
    await insertRun(database.db, {
      test_run_key: "l-2",
      family: "load",
      test_run_name: "load 2",
      env: "dev1",
      host: "https://dev1.example.com",
      test_file: "locust/login.py",
      executor: "jane",
      users: 20,
      run_time: "5m",
      spawn_rate: 0.2,
      load_region: "us-west-2",
      report_location: "reports/l-2.html",
      created_at: new Date("2025-03-01T00:00:00Z"),
    });
    const body = (await get("/v1/load-test-runs")).json();
    expect(keysOf(body)).toEqual(["l-2", "l-1"]);
    expect(body.items[0]).toEqual({
      test_run_key: "l-2",
      test_run_name: "load 2",
      env: "dev1",
      host: "https://dev1.example.com",
      test_file: "locust/login.py",
      executor: "jane",
      branch: null,
      users: 20,
      run_time: "5m",
      spawn_rate: 0.2,
      load_region: "us-west-2",
      report_location: "reports/l-2.html",
      state: "finished",
      duration_ms: 0,
      started_at: null,
      finished_at: null,
      created_at: "2025-03-01T00:00:00.000Z",
    });
    expect((await get("/v1/load-test-runs?page_size=50")).statusCode).toBe(400);
  });
});

describe("unstable and skipped counts", () => {
  let run: RunRef;
  beforeAll(async () => {
    run = await insertRun(database.db, {
      test_run_key: "f-unstable",
      test_run_name: "nightly",
      nora_site: "dev1.example.com",
      executor: "robot",
      branch: "master",
      commit: "c0ffee",
      is_next_gen: true,
      state: "open",
      total: 5,
      passed: 2,
      failed: 2,
      pending: 1,
      flaky: 1,
      duration_ms: 3_600_000,
      started_at: "2025-04-01T08:00:00Z",
      created_at: new Date("2025-04-01T08:00:00Z"),
    });
    const [a, b, c, e, f] = await Promise.all(
      ["a", "b", "c", "e", "f"].map((name) => insertTest(database.db, { title: name })),
    );
    if (!a || !b || !c || !e || !f) throw new Error("tests not made");
    await insertResult(database.db, run, a, { status: "passed" });
    await insertResult(database.db, run, b, { status: "failed", error_message: "boom" });
    await insertResult(database.db, run, c, { status: "failed", error_message: "flaky boom" });
    // e failed once, then passed on its retry: its failure is not final and never unstable.
    await insertResult(database.db, run, e, { status: "failed", is_final: false });
    await insertResult(database.db, run, e, { status: "passed", attempt: 1, flaky: true });
    const pending = "Pending reason == waiting for NXL-9";
    await insertResult(database.db, run, f, { status: "failed", error_message: pending });
    for (const test of [c, e, f]) await tagTest(database.db, "@unstable", test);
  });

  it("counts final failures of '@unstable' tests out of failed, and shows pending as skipped", async () => {
    const body = (await get("/v1/test-runs?page_size=100")).json();
    const item = body.items.find(
      (i: { test_run_key: string }) => i.test_run_key === run.test_run_key,
    );
    expect(item).toEqual({
      test_run_key: "f-unstable",
      test_run_name: "nightly",
      nora_site: "dev1.example.com",
      executor: "robot",
      branch: "master",
      commit: "c0ffee",
      total: 5,
      passed: 2,
      failed: 1,
      pending: 1,
      skipped: 1,
      unstable: 1,
      flaky: 1,
      is_next_gen: true,
      is_china_region: false,
      state: "open",
      duration_ms: 3_600_000,
      started_at: "2025-04-01T08:00:00.000Z",
      finished_at: null,
      created_at: "2025-04-01T08:00:00.000Z",
    });
    const others = body.items.filter((i: { test_run_key: string }) => i !== item);
    expect(others.every((i: { unstable: number }) => i.unstable === 0)).toBe(true);
  });

  it("gives the same counts in the run detail", async () => {
    const body = (await get(`/v1/test-runs/${run.test_run_key}`)).json();
    expect(body.run).toMatchObject({ failed: 1, unstable: 1, skipped: 1, pending: 1 });
  });
});
