import type { FlakyDetail, FlakySummary, FlakyTest } from "@assay/core";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../../../test/build-test-app.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { stepsDone } from "../../../test/steps-done.js";
import { TEST_INGEST_TOKEN, upload } from "../../../test/upload.js";
import { backfillRuns } from "./stats.service.js";
import { nameOf } from "../../db/results-sql.js";

/**
 * Flaky tests end to end on real PostgreSQL: JUnit reports (Maven Surefire's shape, reruns as
 * <flakyFailure>) uploaded through the real ingest route, then the flaky routes read.
 */

const WINDOW = 6;
const SETTINGS = { window: WINDOW, threshold: 0.1, decay: 0.1, minResults: 5 };
let database: TestDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  database = await createTestDatabase();
  app = (
    await buildTestApp(database.db, {
      env: { ASSAY_INGEST_TOKEN: TEST_INGEST_TOKEN, ASSAY_FLAKY_WINDOW: String(WINDOW) },
      resolvePrincipal: async () => ({
        kind: "user",
        id: 1,
        email: "qa@example.com",
        name: "QA",
        admin: false,
      }),
    })
  ).app;
});
afterAll(async () => {
  await app?.close();
  await database?.drop();
});

type Outcome = "p" | "f" | "r";

function junit(cases: Record<string, Outcome>): string {
  const failure = (name: string) =>
    `<failure message="expected 200 but got 500 for ${name}" type="java.lang.AssertionError">java.lang.AssertionError: expected 200 but got 500\n\tat com.example.api.OrderClient.fetch(OrderClient.java:40)</failure>`;
  const body = Object.entries(cases)
    .map(([name, outcome]) => {
      const inner =
        outcome === "f"
          ? failure(name)
          : outcome === "r"
            ? `<flakyFailure message="timeout" type="java.net.SocketTimeoutException"/>`
            : "";
      return `<testcase classname="api.Orders" name="${name}" time="0.1">${inner}</testcase>`;
    })
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="api.Orders">\n${body}\n</testsuite>\n`;
}

async function uploadRun(cases: Record<string, Outcome>, fields: Record<string, string> = {}) {
  const res = await upload(app, [{ name: "TEST-api.Orders.xml", content: junit(cases) }], {
    family: "backend",
    executor: "nightly",
    branch: "main",
    ...fields,
  });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return (res.json() as { test_run_key: string }).test_run_key;
}

const get = async <T>(url: string) => {
  const res = await app.inject({ method: "GET", url });
  return { status: res.statusCode, body: res.json() as T };
};

// alternating flips every run; steady always passes; late fails once in run 5; retried passes
// on a retry in run 3
const PLAN: Record<string, Outcome>[] = [
  { alternating: "p", steady: "p", late: "p", retried: "p" },
  { alternating: "f", steady: "p", late: "p", retried: "p" },
  { alternating: "p", steady: "p", late: "p", retried: "r" },
  { alternating: "f", steady: "p", late: "p", retried: "p" },
  { alternating: "p", steady: "p", late: "f", retried: "p" },
  { alternating: "f", steady: "p", late: "p", retried: "p" },
];
const keys: string[] = [];
let list: FlakyTest[];
const named = (name: string) => list.find((test) => test.name === name);

describe("flaky tests kept up to date at ingest", () => {
  beforeAll(async () => {
    for (const cases of PLAN) keys.push(await uploadRun(cases));
    list = (await get<FlakyTest[]>("/v1/flaky-tests")).body;
  });

  it("ranks the test that flips every run first, with its figures", () => {
    expect(list[0]).toMatchObject({
      name: "alternating",
      flipRate: 1,
      score: 1,
      failureRate: 0.5,
      results: 6,
      retriesPassed: 0,
      outcomes: "pfpfpf",
      lastFlipRunKey: keys[5],
      context: { family: "backend", branch: "main", platform: null },
    });
    expect(list[0]!.failureRateLow).toBeCloseTo(0.188, 2);
    expect(list[0]!.failureRateHigh).toBeCloseTo(0.812, 2);
  });

  it("starts a window from the results before its first failure, not from the failure", () => {
    expect(named("late")).toMatchObject({ outcomes: "ppppfp", results: 6, flipRate: 0.4 });
  });

  it("counts a pass on retry as a flip and as a retry passed", () => {
    expect(named("retried")).toMatchObject({ retriesPassed: 1, failureRate: 0 });
  });

  it("leaves out a test that never failed", () => {
    expect(named("steady")).toBeUndefined();
  });

  it("changes nothing when a run's report is sent again", async () => {
    await uploadRun(PLAN[5]!, { run_key: keys[5]! });
    const again = (await get<FlakyTest[]>("/v1/flaky-tests")).body;
    expect(again).toEqual(list);
  });

  it("filters by family, platform and branch, and bounds the list", async () => {
    expect((await get<FlakyTest[]>("/v1/flaky-tests?branch=release")).body).toEqual([]);
    expect((await get<FlakyTest[]>("/v1/flaky-tests?family=frontend")).body).toEqual([]);
    expect((await get<FlakyTest[]>("/v1/flaky-tests?platform=linux")).body).toEqual([]);
    expect((await get<FlakyTest[]>("/v1/flaky-tests?branch=main&limit=1")).body).toHaveLength(1);
  });

  it("refuses bad filters in words", async () => {
    const zero = await get<{ error: { message: string } }>("/v1/flaky-tests?limit=0");
    expect(zero.status).toBe(400);
    expect(zero.body.error.message).toMatch(/limit must be a whole number from 1 to 500/);
    const unknown = await get<{ error: { message: string } }>("/v1/flaky-tests?famly=backend");
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/famly/);
  });

  it("gives a test's score with its evidence: runs, flips, retries and failure groups", async () => {
    const { body } = await get<FlakyDetail>(`/v1/flaky-tests/${list[0]!.testId}`);
    expect(body.window).toBe(WINDOW);
    const [context] = body.contexts;
    expect(context).toMatchObject({ flaky: true, score: 1 });
    expect(context!.runs.map((run) => run.runKey)).toEqual(keys);
    expect(context!.runs.map((run) => run.flipped)).toEqual([false, true, true, true, true, true]);
    expect(context!.groups).toHaveLength(1);
    expect(context!.groups[0]).toMatchObject({ failures: 3 });
    expect(context!.groups[0]!.message).toContain("expected <n> but got <n>");
    const retried = (await get<FlakyDetail>(`/v1/flaky-tests/${named("retried")!.testId}`)).body;
    expect(retried.contexts[0]!.runs[2]).toMatchObject({ outcome: "r", flipped: true });
  });

  it("counts stored runs again in the same way (the backfill)", async () => {
    await database.db.pool.query("TRUNCATE flaky_stats, flaky_runs, flaky_trend");
    expect((await get<FlakyTest[]>("/v1/flaky-tests")).body).toEqual([]);
    expect(await backfillRuns(database.db, SETTINGS)).toBe(PLAN.length);
    expect((await get<FlakyTest[]>("/v1/flaky-tests")).body).toEqual(list);
    expect(await backfillRuns(database.db, SETTINGS)).toBe(0);
  });

  it("suggests untagging an '@unstable' test that passed its last N results", async () => {
    const late = named("late")!;
    const tag = await app.inject({
      method: "POST",
      url: "/v1/dtag",
      payload: { name: "@unstable", testId: late.testId },
    });
    expect(tag.statusCode, tag.body).toBeLessThan(300);
    const before = (await get<FlakySummary>("/v1/flaky-tests/summary")).body;
    expect(before.stableUnstable).toEqual([]);
    expect(before.trend.at(-1)).toMatchObject({ family: "backend", count: 3 });
    for (let i = 0; i < WINDOW; i++) {
      await uploadRun({ alternating: i % 2 ? "f" : "p", steady: "p", late: "p", retried: "p" });
    }
    const after = (await get<FlakySummary>("/v1/flaky-tests/summary")).body;
    expect(after.stableUnstable).toEqual([
      { testId: late.testId, name: late.name, results: WINDOW },
    ]);
    expect((await get<FlakyTest[]>("/v1/flaky-tests")).body.map((t) => t.name)).toEqual([
      "alternating",
    ]);
    // A settled window moves again when its test fails.
    await uploadRun({ alternating: "p", steady: "p", late: "f", retried: "p" });
    expect(named("late")).toBeDefined();
    const again = (await get<FlakyTest[]>("/v1/flaky-tests")).body;
    expect(again.find((t) => t.name === "late")).toMatchObject({ outcomes: "pppppf" });
  });

  it("suggests untagging an '@unstable' test that never failed, once it has N results", async () => {
    await uploadRun({ fresh: "p" });
    const fresh = await database.db.pool.query<{ id: string }>(
      `SELECT DISTINCT test_id AS id FROM results r WHERE ${nameOf("r")} = 'fresh'`,
    );
    const testId = Number(fresh.rows[0]!.id);
    const tag = await app.inject({
      method: "POST",
      url: "/v1/dtag",
      payload: { name: "@unstable", testId },
    });
    expect(tag.statusCode, tag.body).toBeLessThan(300);
    const listed = async () =>
      (await get<FlakySummary>("/v1/flaky-tests/summary")).body.stableUnstable.filter(
        (test) => test.testId === testId,
      );
    // One pass is too few to call it stable.
    expect(await listed()).toEqual([]);
    for (let i = 1; i < WINDOW; i++) await uploadRun({ fresh: "p" });
    expect(await listed()).toEqual([{ testId, name: "fresh", results: WINDOW }]);
    // Its first failure starts a window (pppppf): no longer stable.
    await uploadRun({ fresh: "f" });
    expect(await listed()).toEqual([]);
  });

  it("does not rank a test seen flipping in only two results above well-evidenced ones", async () => {
    // A new test's first two results differ: flip rate 1, score 1.00, but one flip is all it shows.
    await uploadRun({ newcomer: "p" });
    await uploadRun({ newcomer: "f" });
    const ranked = async () => (await get<FlakyTest[]>("/v1/flaky-tests")).body;
    expect((await ranked()).map((t) => t.name)).not.toContain("newcomer");
    const id = Number(
      (
        await database.db.pool.query<{ id: string }>(
          `SELECT DISTINCT test_id AS id FROM results r WHERE ${nameOf("r")} = 'newcomer'`,
        )
      ).rows[0]!.id,
    );
    const detail = (await get<FlakyDetail>(`/v1/flaky-tests/${id}`)).body;
    expect(detail.minResults).toBe(5);
    // The score is kept as measured (the evidence); the rule says it is too little to act on.
    expect(detail.contexts[0]).toMatchObject({ score: 1, results: 2, flaky: false });
    const summary = (await get<FlakySummary>("/v1/flaky-tests/summary")).body;
    expect(summary.minResults).toBe(5);
    const flakyToday = summary.trend.at(-1)!.count;
    // Three more flips make five results: now it is flaky, and ranked by its score.
    for (const outcome of ["p", "f", "p"] as const) await uploadRun({ newcomer: outcome });
    const after = await ranked();
    expect(after.find((t) => t.name === "newcomer")).toMatchObject({ results: 5, score: 1 });
    const trend = (await get<FlakySummary>("/v1/flaky-tests/summary")).body.trend;
    expect(trend.at(-1)!.count).toBe(flakyToday + 1);
  });
});

describe("a run with two results of one test", () => {
  it("counts the run once in the test's window, with the worse outcome", async () => {
    // Two entries with one explicit id (TC901) are one test of the catalogue, both final.
    await uploadRun(
      { "checkout TC901 by card": "r", "checkout TC901 by voucher": "f" },
      { branch: "twice" },
    );
    await stepsDone(database.db);
    const { rows } = await database.db.pool.query(
      "SELECT test_id::int, outcomes FROM flaky_stats WHERE branch = 'twice'",
    );
    expect(rows).toEqual([{ test_id: 901, outcomes: "f" }]);
  });
});
