import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestApp } from "../../../test/build-test-app.js";
import { insertRun } from "../../../test/factories.js";
import { planWithoutScans } from "../../../test/query-plan.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { dailyRunsQuery } from "./dashboard.repo.js";
import { periodStart } from "./dashboard.service.js";

/*
 * The Dashboard's data against known runs, with the example catalogue: Legacy DEV is
 * dev.legacy.example.com, Legacy STAGE stage.legacy.example.com; API DEV envs dev and dev1.
 */

const DAILY = "daily robot executor";
const RERUN = "daily automatic rerun-failed executor";
const DAY = 86_400_000;

let database: TestDatabase;
let testApp: TestApp;
const today = periodStart(new Date(), 1);
const daysAgo = (n: number, hour = 2) => new Date(today.getTime() - n * DAY + hour * 3_600_000);
const isoDay = (at: Date) => at.toISOString().slice(0, 10);

beforeAll(async () => {
  database = await createTestDatabase();
  testApp = await buildTestApp(database.db);
  const db = database.db;
  const legacyDev = { family: "frontend", nora_site: "dev.legacy.example.com" } as const;
  // Two daily runs yesterday and one three days ago on Legacy DEV.
  await insertRun(db, {
    ...legacyDev,
    test_run_key: "d1",
    executor: DAILY,
    created_at: daysAgo(1, 1),
    total: 10,
    passed: 7,
    failed: 2,
    pending: 1,
  });
  await insertRun(db, {
    ...legacyDev,
    test_run_key: "d2",
    executor: DAILY,
    created_at: daysAgo(1, 5),
    total: 5,
    passed: 5,
    failed: 0,
    pending: 0,
  });
  await insertRun(db, {
    ...legacyDev,
    test_run_key: "d3",
    executor: DAILY,
    created_at: daysAgo(3),
    total: 4,
    passed: 2,
    failed: 2,
    pending: 0,
  });
  // Not counted: a person's run, another environment, another platform, before the period.
  await insertRun(db, {
    ...legacyDev,
    test_run_key: "p1",
    executor: "maria@example.com",
    created_at: daysAgo(1),
    total: 100,
    passed: 0,
    failed: 100,
  });
  await insertRun(db, {
    family: "frontend",
    nora_site: "stage.legacy.example.com",
    test_run_key: "s1",
    executor: DAILY,
    created_at: daysAgo(1),
    total: 50,
    passed: 50,
  });
  await insertRun(db, {
    family: "frontend",
    nora_site: "dev1.nextgen.example.com",
    test_run_key: "n1",
    executor: DAILY,
    created_at: daysAgo(1),
    total: 30,
    passed: 30,
  });
  await insertRun(db, {
    ...legacyDev,
    test_run_key: "old",
    executor: DAILY,
    created_at: daysAgo(40),
    total: 9,
    passed: 9,
  });
  // The rerun of failures, and a backend daily run on env dev1.
  await insertRun(db, {
    ...legacyDev,
    test_run_key: "r1",
    executor: RERUN,
    created_at: daysAgo(1, 6),
    baseurl: "https://dev.legacy.example.com",
    total: 2,
    passed: 1,
    failed: 1,
  });
  await insertRun(db, {
    family: "backend",
    env: "dev1",
    test_run_key: "a1",
    executor: DAILY,
    created_at: daysAgo(2),
    total: 8,
    passed: 6,
    failed: 2,
  });
});
afterAll(async () => {
  await testApp.app.close();
  await database.drop();
});

const get = async (url: string) => {
  const res = await testApp.app.inject({ method: "GET", url });
  return { status: res.statusCode, body: res.json() };
};

describe("GET /v1/dashboard/daily-runs", () => {
  it("sums the daily robot's runs per day, with every day of the period (no runs: zeros)", async () => {
    const { status, body } = await get(
      "/v1/dashboard/daily-runs?family=frontend&platform=legacy&env=dev&days=14",
    );

    expect(status).toBe(200);
    expect(body.executor).toBe(DAILY);
    expect(body.targets).toEqual(["dev.legacy.example.com"]);
    expect(body.days).toHaveLength(14);
    expect(body.days.at(-1).date).toBe(isoDay(today));
    expect(body.days[0].date).toBe(isoDay(daysAgo(13)));
    const byDate = Object.fromEntries(body.days.map((d: { date: string }) => [d.date, d]));
    const yesterday = byDate[isoDay(daysAgo(1))];
    expect(yesterday).toMatchObject({ total: 15, passed: 12, failed: 2, skipped: 1 });
    expect(yesterday.runs.map((r: { key: string }) => r.key)).toEqual(["d1", "d2"]);
    expect(byDate[isoDay(daysAgo(3))]).toMatchObject({ total: 4, passed: 2, failed: 2 });
    expect(byDate[isoDay(daysAgo(2))]).toEqual({
      date: isoDay(daysAgo(2)),
      total: 0,
      passed: 0,
      failed: 0,
      unstable: 0,
      skipped: 0,
      runs: [],
    });
    const all = body.days.reduce((sum: number, d: { total: number }) => sum + d.total, 0);
    expect(all).toBe(19);
  });

  it("defaults to 30 days; a 90-day period reaches runs 40 days old", async () => {
    const thirty = await get("/v1/dashboard/daily-runs?family=frontend");
    expect(thirty.body.days).toHaveLength(30);
    const ninety = await get("/v1/dashboard/daily-runs?family=frontend&days=90");
    expect(ninety.body.days).toHaveLength(90);
    const old = ninety.body.days.find((d: { date: string }) => d.date === isoDay(daysAgo(40)));
    expect(old.total).toBe(9);
  });

  it("keeps platforms and environments apart", async () => {
    const stage = await get("/v1/dashboard/daily-runs?family=frontend&platform=legacy&env=stage");
    expect(stage.body.days.at(-2).total).toBe(50);
    const nextGen = await get("/v1/dashboard/daily-runs?family=frontend&platform=nextGen&env=dev");
    expect(nextGen.body.days.at(-2).total).toBe(30);
  });

  it("charts backend runs by their env", async () => {
    const { body } = await get("/v1/dashboard/daily-runs?family=backend&env=dev&days=14");
    expect(body.targets).toEqual(["dev", "dev1"]);
    expect(body.days.at(-3)).toMatchObject({ total: 8, passed: 6, failed: 2 });
    const stage = await get("/v1/dashboard/daily-runs?family=backend&env=stage&days=14");
    expect(stage.body.days.every((d: { total: number }) => d.total === 0)).toBe(true);
  });

  it("refuses a period that is not 14, 30 or 90 and an unknown family with 400", async () => {
    for (const url of [
      "/v1/dashboard/daily-runs?family=frontend&days=7",
      "/v1/dashboard/daily-runs?family=load",
      "/v1/dashboard/daily-runs?family=frontend&env=prod",
    ]) {
      const { status, body } = await get(url);
      expect(status, url).toBe(400);
      expect(body.error.message, url).toBeTruthy();
    }
  });

  it("is answered from an index of runs, never from results", async () => {
    const query = dailyRunsQuery(database.db, {
      family: "frontend",
      executor: DAILY,
      since: daysAgo(89),
      targets: ["dev.legacy.example.com"],
    }).compile();
    const plan = await planWithoutScans(database.db, query);
    // Which of runs' indexes (the executor's, or the run lists' filters of migration 0096) is
    // the planner's choice on a few rows; what matters is that no result is read.
    expect(plan).toMatch(/Index (Only )?Scan( Backward)? using runs_\w+ on runs/);
    expect(plan).not.toContain("results");
  });
});

describe("GET /v1/dashboard/rerun-runs", () => {
  it("lists only the rerun-failed executor's runs with date, name, executor, URL and failed", async () => {
    const { status, body } = await get(
      "/v1/dashboard/rerun-runs?family=frontend&platform=legacy&env=dev",
    );
    expect(status).toBe(200);
    expect(body.executor).toBe(RERUN);
    expect(body.runs).toEqual([
      expect.objectContaining({
        key: "r1",
        executor: RERUN,
        url: "https://dev.legacy.example.com",
        failed: 1,
        createdAt: daysAgo(1, 6).toISOString(),
      }),
    ]);
  });
});

describe("the TABLE with the Daily Run Scheduler's automatic rerun", () => {
  it("lists a daily run its rerun-failed build reran in place, under the rerun executor", async () => {
    // The scheduler's rerun of d3's failures: a build under the rerun executor into run d3.
    await database.db.pool.query(
      `INSERT INTO builds (family, region, executor_kind, test_run_key, rerun_of, attempt, mode,
         test_run_name, executor, source_version, payload, started_by_email, started_by_name,
         start_time, deadline)
       VALUES ('frontend', 'US', 'local', 'd3', 'failed', 1, 'by_tags', 'rerun', $1, 'master',
         '{}', 'scheduler', 'Daily Run Scheduler', $2, $2)`,
      [RERUN, daysAgo(3, 4)],
    );
    const { body } = await get("/v1/dashboard/rerun-runs?family=frontend&platform=legacy&env=dev");
    expect(body.runs.map((run: { key: string }) => run.key)).toEqual(["r1", "d3"]);
    expect(body.runs[1]).toMatchObject({ executor: RERUN, failed: 2 });
    // A person's rerun (another executor name) does not make the TABLE.
    await database.db.pool.query(
      "UPDATE builds SET executor = 'QA Engineer' WHERE test_run_key = 'd3'",
    );
    const after = await get("/v1/dashboard/rerun-runs?family=frontend&platform=legacy&env=dev");
    expect(after.body.runs.map((run: { key: string }) => run.key)).toEqual(["r1"]);
  });
});
