import type { LoadTrend } from "@assay/core";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../../../test/build-test-app.js";
import { insertLoadStat, insertRun } from "../../../test/factories.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { TEST_INGEST_TOKEN, upload } from "../../../test/upload.js";
import { regressionsOf } from "./trends.service.js";

let database: TestDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  database = await createTestDatabase();
  app = (
    await buildTestApp(database.db, {
      env: {
        ASSAY_TREND_WINDOW: "3",
        ASSAY_TREND_REGRESSION_PERCENT: "25",
        ASSAY_INGEST_TOKEN: TEST_INGEST_TOKEN,
      },
    })
  ).app;
});
afterAll(async () => {
  await app.close();
  await database.drop();
});

const get = (url: string) => app.inject({ method: "GET", url });

interface Day {
  p95: number;
  rps?: number;
  failures?: number;
  /** Fields of the run, e.g. another environment. */
  run?: { env?: string; test_file?: string };
}

/** One load run a day of job "login.py on dev", each with /login and the Aggregated row. */
async function loadRuns(prefix: string, days: Day[]): Promise<string[]> {
  const keys: string[] = [];
  for (const [i, day] of days.entries()) {
    const run = await insertRun(database.db, {
      test_run_key: `${prefix}-${i}`,
      family: "load",
      env: "dev",
      test_file: `${prefix}/login.py`,
      created_at: new Date(Date.UTC(2026, 10, 1 + i)),
      ...day.run,
    });
    for (const aggregated of [false, true]) {
      await insertLoadStat(database.db, run, {
        method: aggregated ? "" : "POST",
        name: aggregated ? "Aggregated" : "/login",
        aggregated,
        requests: 1000,
        failures: day.failures ?? 0,
        median_ms: day.p95 / 2,
        p95_ms: day.p95,
        requests_per_s: day.rps ?? 50,
      });
    }
    keys.push(run.test_run_key);
  }
  return keys;
}

describe("GET /v1/load-test-runs/{key}/trends", () => {
  it("answers each endpoint across the job's runs and flags the run's regressions", async () => {
    const keys = await loadRuns("t1", [
      { p95: 100 },
      { p95: 110 },
      { p95: 90 },
      { p95: 100, run: { env: "stage" } },
      { p95: 140, rps: 30, failures: 25 },
      { p95: 100 },
    ]);
    const res = await get(`/v1/load-test-runs/${keys[4]}/trends`);
    expect(res.statusCode).toBe(200);
    const trend = res.json<LoadTrend>();
    expect(trend.job).toEqual({ testFile: "t1/login.py", env: "dev" });
    // The other environment's run is another job; the run after the asked one is not shown.
    expect(trend.runs.map((r) => r.key)).toEqual([keys[0], keys[1], keys[2], keys[4]]);
    expect(trend.rule).toEqual({ window: 3, percent: 25, errorPoints: 1 });
    expect(trend.endpoints.map((e) => e.name)).toEqual(["/login", "Aggregated"]);
    const login = trend.endpoints[0]!;
    // p95 140 > 100 (median of 100, 110, 90) x 1.25; p50 70 > 50 x 1.25; rps 30 < 50 x 0.75;
    // error rate 2.5 % > 0 % + 1 point.
    expect(login.regressions).toEqual(["p50", "p95", "rps", "errorRate"]);
    expect(login.points.map((p) => p?.p95)).toEqual([100, 110, 90, 140]);
    expect(login.points[3]).toMatchObject({ rps: 30, errorRate: 2.5 });
    expect(login.points[1]!.regressions).toEqual([]);
  });

  it("judges the first point shown against runs before it, and leaves gaps for missing endpoints", async () => {
    const keys = await loadRuns("t2", [{ p95: 100 }, { p95: 100 }, { p95: 200 }]);
    const extra = await insertRun(database.db, {
      test_run_key: "t2-extra",
      family: "load",
      env: "dev",
      test_file: "t2/login.py",
      created_at: new Date(Date.UTC(2026, 10, 10)),
    });
    await insertLoadStat(database.db, extra, { method: "GET", name: "/home", p95_ms: 50 });
    const trend = (await get(`/v1/load-test-runs/t2-extra/trends?runs=2`)).json<LoadTrend>();
    expect(trend.runs.map((r) => r.key)).toEqual([keys[2], "t2-extra"]);
    const login = trend.endpoints.find((e) => e.name === "/login")!;
    expect(login.points[0]!.regressions).toContain("p95");
    expect(login.points[1]).toBeNull();
    expect(login.regressions).toEqual([]);
  });

  it("refuses a bad runs count, unknown fields and a run that is not a load run", async () => {
    const bad = await get("/v1/load-test-runs/t1-0/trends?runs=1");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toMatch(/runs must be at least 2/);
    expect((await get("/v1/load-test-runs/t1-0/trends?window=3")).statusCode).toBe(400);
    const ui = await insertRun(database.db, { test_run_key: "t-ui", family: "frontend" });
    const res = await get(`/v1/load-test-runs/${ui.test_run_key}/trends`);
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe(
      "No load test run with key t-ui: check the key in the Load list.",
    );
  });
});

const LOCUST_HEADER =
  "Type,Name,Request Count,Failure Count,Median Response Time,Average Response Time,Min Response Time,Max Response Time,Average Content Size,Requests/s,Failures/s,50%,66%,75%,80%,90%,95%,98%,99%,99.9%,99.99%,100%";

describe("a load job's trend from uploaded Locust runs", () => {
  it("shows every upload of the job, the last one asked for last", async () => {
    const keys: string[] = [];
    for (const [p95, failures] of [
      [100, 0],
      [110, 0],
      [90, 0],
      [180, 40],
    ] as const) {
      const row = (type: string, name: string) =>
        `${type},${name},1000,${failures},${p95 / 2},50,5,500,100,50,0,${p95 / 2},0,0,0,0,${p95},0,0,0,0,0`;
      const csv = [LOCUST_HEADER, row("POST", "/api/login"), row("", "Aggregated")].join("\n");
      const res = await upload(app, [{ name: "run_stats.csv", content: csv }], {
        env: "stage",
        test_file: "uploads/checkout.py",
      });
      expect(res.statusCode, res.body).toBe(201);
      keys.push(res.json<{ test_run_key: string }>().test_run_key);
    }
    const trend = (await get(`/v1/load-test-runs/${keys[3]}/trends`)).json<LoadTrend>();
    expect(trend.runs.map((r) => r.key)).toEqual(keys);
    expect(trend.endpoints[0]!.points.map((p) => p?.p95)).toEqual([100, 110, 90, 180]);
    expect(trend.endpoints[0]!.regressions).toEqual(["p50", "p95", "errorRate"]);
  });
});

describe("regressionsOf", () => {
  const rule = { window: 2, percent: 20, errorPoints: 1 };
  const point = (p95: number | null, errorRate = 0) => ({ p50: null, p95, rps: 10, errorRate });
  it("compares with the median of the window's runs that have a value", () => {
    const points = [point(1000), point(100), point(null), point(100), point(125)];
    // Window of 2 before the last: null (left out) and 100: 125 > 120.
    expect(regressionsOf(points, 4, rule)).toEqual(["p95"]);
    expect(regressionsOf(points, 0, rule)).toEqual([]);
    expect(regressionsOf([point(100, 0), point(100, 0.9)], 1, rule)).toEqual([]);
    expect(regressionsOf([point(100, 0), point(100, 1.5)], 1, rule)).toEqual(["errorRate"]);
  });
});
