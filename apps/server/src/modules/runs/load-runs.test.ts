import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../../../test/build-test-app.js";
import { insertLoadStat, insertRun } from "../../../test/factories.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";

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

describe("GET /v1/load-test-runs/{key}", () => {
  it("answers the run and its statistics, the aggregated row last", async () => {
    const run = await insertRun(database.db, { test_run_key: "l-stats", family: "load" });
    await insertLoadStat(database.db, run, {
      method: "",
      name: "Aggregated",
      requests: 300,
      failures: 3,
      aggregated: true,
      requests_per_s: 30,
      failures_per_s: 0.3,
    });
    await insertLoadStat(database.db, run, {
      method: "POST",
      name: "/login",
      requests: 200,
      failures: 3,
      median_ms: 120,
      p95_ms: 300,
      p99_ms: 450.5,
      average_ms: 140,
      min_ms: 80,
      max_ms: 900,
      requests_per_s: 20,
      failures_per_s: 0.3,
    });
    await insertLoadStat(database.db, run, { method: "GET", name: "/home", requests: 100 });
    const res = await get("/v1/load-test-runs/l-stats");
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.run.test_run_key).toBe("l-stats");
    expect(body.load_stats.map((s: { name: string }) => s.name)).toEqual([
      "/login",
      "/home",
      "Aggregated",
    ]);
    expect(body.load_stats[0]).toEqual({
      id: expect.any(Number),
      method: "POST",
      name: "/login",
      requests: 200,
      failures: 3,
      median_ms: 120,
      p95_ms: 300,
      p99_ms: 450.5,
      average_ms: 140,
      min_ms: 80,
      max_ms: 900,
      requests_per_s: 20,
      failures_per_s: 0.3,
      aggregated: false,
    });
    expect(body.load_stats[2]).toMatchObject({ aggregated: true, requests: 300 });
  });

  it("answers 404 for an unknown key or a run of another family", async () => {
    await insertRun(database.db, { test_run_key: "ui-run" });
    for (const key of ["nope", "ui-run"]) {
      const res = await get(`/v1/load-test-runs/${key}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({
        error: { code: "not_found", message: `No load test run with key ${key}.` },
      });
    }
  });
});
