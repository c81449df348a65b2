import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../../../test/build-test-app.js";
import {
  insertResult,
  insertRun,
  insertTest,
  tagTest,
  type RunRef,
  type TestRef,
} from "../../../test/factories.js";
import { planWithoutScans } from "../../../test/query-plan.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { earlierHistoryQuery } from "./run-history.repo.js";

let database: TestDatabase;
let app: FastifyInstance;

const day = (n: number, hour = 9) => new Date(Date.UTC(2025, 2, n, hour)).toISOString();

interface Entry {
  status: string;
  date: string | null;
  test_run_key: string;
  test_run_test_id: string;
}
const summary = (entries: Entry[]) => entries.map((e) => `${e.test_run_key}:${e.status}`);

let runs: Record<string, RunRef>;
let tests: Record<string, TestRef>;

beforeAll(async () => {
  database = await createTestDatabase();
  app = (await buildTestApp(database.db)).app;
  const db = database.db;
  runs = {};
  for (const n of [1, 2, 3, 4, 5]) {
    runs[`r${n}`] = await insertRun(db, { test_run_key: `r${n}`, started_at: day(n, 8) });
  }
  tests = {
    steady: await insertTest(db, { id: 501, title: "Steady" }),
    fresh: await insertTest(db, { id: 502, title: "Fresh" }),
    pending: await insertTest(db, { id: 503, title: "Pending" }),
    undated: await insertTest(db, { id: 504, title: "Undated" }),
    unstable: await insertTest(db, { id: 505, title: "Unstable" }),
  };
  await tagTest(db, "@unstable", tests.unstable!);
  const result = (run: string, test: string, status: "passed" | "failed", n: number, extra = {}) =>
    insertResult(db, runs[run]!, tests[test]!, {
      test_run_test_id: `${test}-${run}`,
      status,
      start_time: day(n),
      ...extra,
    });
  // steady: passed, then failed three times in a row (r2..r4), then passed again in r5.
  await result("r1", "steady", "passed", 1);
  await result("r2", "steady", "failed", 2);
  await result("r3", "steady", "failed", 3);
  // A retried attempt is not history; only the final attempt counts.
  await result("r3", "steady", "passed", 3, { test_run_test_id: "steady-r3#0", is_final: false });
  await result("r4", "steady", "failed", 4);
  await result("r5", "steady", "passed", 5);
  // fresh: only in r4, failed.
  await result("r4", "fresh", "failed", 4);
  // pending: a failure with a pending reason is "other", not failed.
  await result("r3", "pending", "failed", 3);
  await result("r4", "pending", "failed", 4, { error_message: "Pending reason == blocked" });
  // undated: no start time in r4; it is placed at r4's start, so r3 is before it and r5 is not.
  await result("r3", "undated", "passed", 3);
  await result("r4", "undated", "failed", 4, { start_time: null });
  await result("r5", "undated", "failed", 5);
  // unstable: an unstable failure is still a failure in history.
  await result("r3", "unstable", "passed", 3);
  await result("r4", "unstable", "failed", 4);
});
afterAll(async () => {
  await app.close();
  await database.drop();
});

async function history(key: string, query = "") {
  const res = await app.inject({ method: "GET", url: `/v1/test-runs/${key}/history${query}` });
  return res;
}

describe("GET /v1/test-runs/{key}/history", () => {
  it("answers each test of the run: its result here first, then earlier runs, newest first", async () => {
    const res = await history("r4");
    expect(res.statusCode).toBe(200);
    const body = res.json<Record<string, Entry[]>>();
    expect(Object.keys(body).sort()).toEqual(["501", "502", "503", "504", "505"]);
    expect(summary(body["501"]!)).toEqual(["r4:failed", "r3:failed", "r2:failed", "r1:passed"]);
    expect(summary(body["502"]!)).toEqual(["r4:failed"]);
    expect(summary(body["503"]!)).toEqual(["r4:other", "r3:failed"]);
    expect(summary(body["504"]!)).toEqual(["r4:failed", "r3:passed"]);
    expect(summary(body["505"]!)).toEqual(["r4:failed", "r3:passed"]);
    expect(body["501"]![1]).toEqual({
      status: "failed",
      date: "2025-03-03",
      test_run_key: "r3",
      test_run_test_id: "steady-r3",
    });
    expect(body["504"]![0]).toMatchObject({ date: null, test_run_key: "r4" });
  });

  it("judges a newer run by its own history: r5 sees r4's failures", async () => {
    const body = (await history("r5")).json<Record<string, Entry[]>>();
    expect(Object.keys(body).sort()).toEqual(["501", "504"]);
    expect(summary(body["501"]!)).toEqual([
      "r5:passed",
      "r4:failed",
      "r3:failed",
      "r2:failed",
      "r1:passed",
    ]);
    // r4's undated result cannot be placed in time, so only r4's own list shows it.
    expect(summary(body["504"]!)).toEqual(["r5:failed", "r3:passed"]);
  });

  it("keeps to the limit (default 5, at most 20)", async () => {
    const body = (await history("r5", "?limit=2")).json<Record<string, Entry[]>>();
    expect(summary(body["501"]!)).toEqual(["r5:passed", "r4:failed"]);
    expect((await history("r5", "?limit=0")).statusCode).toBe(400);
    expect((await history("r5", "?limit=21")).statusCode).toBe(400);
    expect((await history("r5", "?limit=20")).statusCode).toBe(200);
  });

  it("answers an empty map for a run without results, and 404 for an unknown or backend run", async () => {
    await insertRun(database.db, { test_run_key: "empty" });
    expect((await history("empty")).json()).toEqual({});
    const unknown = await history("no-such-run");
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toEqual({
      code: "not_found",
      message: "No test run with key no-such-run.",
    });
    await insertRun(database.db, { test_run_key: "api-1", family: "backend" });
    expect((await history("api-1")).statusCode).toBe(404);
  });
});

describe("the earlier-history query", () => {
  it("can be served by results_latest_final_idx, one probe per test", async () => {
    const anchors = Object.values(tests).map((test) => ({
      testId: test.id,
      anchor: new Date(day(4)),
    }));
    // Only an index whose predicate the query matches (is_final) can answer.
    const plan = await planWithoutScans(
      database.db,
      earlierHistoryQuery(database.db, runs.r4!.id, anchors, 5).compile(database.db.kysely),
    );
    // Each month's partition has its own copy of the index (migration 0191), named by its columns.
    expect(plan).toMatch(
      /Index (Only )?Scan using test_results_p\d{6}_test_id_start_time_id_status_run_id_idx on /,
    );
    expect(plan).not.toMatch(/Seq Scan on test_results_p\d{6}/);
  });
});
