import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RetentionFileSchema, readRetentionPolicy } from "../../config-retention.js";
import { buildTestApp, type TestApp } from "../../../test/build-test-app.js";
import { insertResult, insertRun, insertTest, type TestRef } from "../../../test/factories.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { unstableCounts } from "../runs/runs.service.js";
import { runRetentionPass } from "./retention.pass.js";

/*
 * Retention's roll-ups per test (migration 0215): a removed day Top Fails' two months can no
 * longer reach is counted in its month's row, which keeps its first and last day; a day the
 * window still reaches keeps its own row, and Top Fails counts it.
 */

const DAY = 86_400_000;
const iso = (date: Date) => date.toISOString().slice(0, 10);

let database: TestDatabase;
let testApp: TestApp;
let flaky: TestRef;
let steady: TestRef;
/** Two days of one month well out of Top Fails' window, and a day inside it. */
const month = new Date(Date.now() - 100 * DAY);
month.setUTCDate(1);
month.setUTCHours(0, 0, 0, 0);
const old = [new Date(month.getTime() + DAY + 3_600_000), new Date(month.getTime() + 2 * DAY)];
const recent = new Date(Date.now() - 45 * DAY);

beforeAll(async () => {
  database = await createTestDatabase();
  testApp = await buildTestApp(database.db, { startWorkers: false });
  flaky = await insertTest(database.db, { title: "checkout fails now and then" });
  steady = await insertTest(database.db, { title: "login works" });
  for (const at of [...old, recent]) {
    const run = await insertRun(database.db, {
      family: "frontend",
      created_at: at,
      started_at: at,
      total: 2,
      passed: 1,
      failed: 1,
    });
    await insertResult(database.db, run, flaky, {
      status: "failed",
      start_time: at,
      error_message: "expected 1 to be 2",
    });
    await insertResult(database.db, run, steady, { status: "passed", start_time: at });
  }
});

afterAll(async () => {
  await testApp?.app.close();
  await database?.drop();
});

describe("retention's roll-ups", () => {
  it("count a month out of Top Fails' reach in one row a test, and keep a day in it per day", async () => {
    const policy = readRetentionPolicy(
      RetentionFileSchema.parse({ default: { runsDays: 30, failuresDays: 40 } }),
    );
    const outcome = await runRetentionPass(
      {
        db: database.db,
        objects: testApp.objects,
        policy,
        log: testApp.app.log,
        unstableCounts: (ids) => unstableCounts(database.db, ids),
        batch: { results: 100, attachments: 100 },
      },
      "test-server",
      "cli",
    );
    expect(outcome).toMatchObject({ state: "finished" });
    const { rows } = await database.db.pool.query(
      `SELECT test_id::int, day::text, first_day::text, last_day::text, passed, failed
       FROM retention_test_days ORDER BY test_id, day`,
    );
    expect(rows).toEqual([
      {
        test_id: flaky.id,
        day: iso(month),
        first_day: iso(old[0]!),
        last_day: iso(old[1]!),
        passed: 0,
        failed: 2,
      },
      {
        test_id: flaky.id,
        day: iso(recent),
        first_day: iso(recent),
        last_day: iso(recent),
        passed: 0,
        failed: 1,
      },
      {
        test_id: steady.id,
        day: iso(month),
        first_day: iso(old[0]!),
        last_day: iso(old[1]!),
        passed: 2,
        failed: 0,
      },
      {
        test_id: steady.id,
        day: iso(recent),
        first_day: iso(recent),
        last_day: iso(recent),
        passed: 1,
        failed: 0,
      },
    ]);

    const get = async (url: string) => (await testApp.app.inject({ method: "GET", url })).json();
    // A test's removed results: every row, from the month row's first day to the last day.
    expect(await get(`/v1/retention/tests/${flaky.id}`)).toEqual({
      passed: 0,
      failed: 3,
      skipped: 0,
      from: iso(old[0]!),
      to: iso(recent),
    });
    // Top Fails: the failure inside its two months only.
    expect(await get("/v1/fails?limit=10")).toEqual([
      expect.objectContaining({ id: flaky.id, fail_count: 1 }),
    ]);
  });
});
