import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../../../test/build-test-app.js";
import { insertResult, insertRun, insertTest, type TestRef } from "../../../test/factories.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { TEST_INGEST_TOKEN } from "../../../test/upload.js";
import { listTopFails } from "../runs/history.repo.js";
import { countStep } from "./topfails.service.js";

// The kept answer against the count over results, on a store that changes in every way the kept
// totals must follow: any drift between the two fails here. The job's steps are driven by the
// test (the app keeps no totals of its own: keepTopFails is off in test apps).

let database: TestDatabase;
let app: FastifyInstance;
const tests: TestRef[] = [];

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

async function post(url: string, payload: unknown) {
  const res = await app.inject({
    method: "POST",
    url,
    headers: { authorization: `Bearer ${TEST_INGEST_TOKEN}` },
    payload: payload as string,
  });
  expect(res.statusCode, res.body).toBeLessThan(300);
}

/** A live run (the reporters' API, ingestion's hooks and all): opened, results, finished. */
async function liveRun(key: string, results: object[], finish = true) {
  await post("/v1/ingest/runs", { family: "frontend", run_key: key });
  await post(`/v1/ingest/runs/${key}/results`, results);
  if (finish) await post(`/v1/ingest/runs/${key}/finish`, {});
}

const failure = (test: TestRef, id: string, days: number, extra: object = {}) => ({
  test_run_test_id: id,
  test_id: test.id,
  name: `${test.title} ${id}`,
  status: "failed",
  start_time: daysAgo(days),
  ...extra,
});

/** The same rows, kept and counted, for a few limits (the top's cut, ties and all). */
async function expectKeptAsCounted(): Promise<void> {
  for (const limit of [1, 2, 3, 500]) {
    const counted = await listTopFails(database.db, 2, limit);
    const kept = await listTopFails(database.db, 2, limit, "kept");
    expect(counted.length).toBeGreaterThan(0);
    expect(kept).toEqual(counted);
  }
}

async function keptRows(): Promise<number> {
  return (await listTopFails(database.db, 2, 500, "kept")).length;
}

async function serviceAnswer() {
  return (await app.inject({ method: "GET", url: "/v1/fails?limit=500" })).json<unknown[]>();
}

beforeAll(async () => {
  database = await createTestDatabase();
  app = (await buildTestApp(database.db, { env: { ASSAY_INGEST_TOKEN: TEST_INGEST_TOKEN } })).app;
  const db = database.db;
  for (let i = 0; i < 8; i++) tests.push(await insertTest(db, { title: `T${i}` }));
  const [t0, t1, t2, t3, t4, t5] = tests as [TestRef, TestRef, TestRef, TestRef, TestRef, TestRef];
  // A run stored before the totals: failures in the window, older ones, pending ones, retried.
  const base = await insertRun(db);
  const fail = (test: TestRef, days: number, extra = {}) =>
    insertResult(db, base, test, { status: "failed", start_time: daysAgo(days), ...extra });
  for (const days of [1, 5, 20, 40]) await fail(t0, days);
  for (const days of [2, 3, 50]) await fail(t1, days);
  for (const days of [4, 6]) await fail(t2, days);
  await fail(t3, 10);
  for (const days of [70, 90, 200]) await fail(t3, days);
  // Inside the window now (two months back are 59 to 62 days), out of it five days later.
  for (const days of [58, 58.5]) await fail(t4, days);
  await fail(t5, 2, { error_message: "Error: Pending reason == waiting for NXL-1" });
  await fail(t5, 3, { is_final: false });
  await insertResult(db, base, t5, { status: "passed", start_time: daysAgo(3) });
});

afterAll(async () => {
  await app.close();
  await database.drop();
});

describe("Top Fails kept", () => {
  it("answers nothing until the job has counted; the screen counts from results meanwhile", async () => {
    expect(await keptRows()).toBe(0);
    const counted = await listTopFails(database.db, 2, 500);
    expect((await serviceAnswer()).map((row) => (row as { id: number }).id)).toEqual(
      counted.map((row) => row.id),
    );
  });

  it("gives the count's rows once counted", async () => {
    const step = await countStep(database.db);
    expect(step).toMatchObject({ rebuilt: true, runs: 1, added: 12 });
    await expectKeptAsCounted();
  });

  it("adds runs stored since the step, finished or still open, before the next step", async () => {
    const [t0, t1, , , , , t6, t7] = tests as TestRef[];
    // One result per test and run, as a suite reports them.
    await liveRun("later", [failure(t6!, "a", 1), failure(t7!, "b", 2), failure(t1!, "c", 1)]);
    await liveRun("open", [failure(t6!, "a", 1), failure(t0!, "b", 1)], false);
    await expectKeptAsCounted();
    // Two servers' steps at once: the state row's lock lets one count, the other finds nothing.
    const steps = await Promise.all([countStep(database.db), countStep(database.db)]);
    expect(steps.map((s) => s.runs).sort()).toEqual([0, 1]);
    await expectKeptAsCounted();
  });

  it("takes away what leaves the window, at the read and then at the step", async () => {
    // Five days pass: every time the store holds moves five days back, the totals' start too.
    const db = database.db;
    await db.pool.query(`UPDATE results SET start_time = start_time - interval '5 days'`);
    await db.pool.query(
      `UPDATE topfails_state SET counted_from = counted_from - interval '5 days'`,
    );
    await expectKeptAsCounted();
    const step = await countStep(db);
    expect(step.rebuilt).toBe(false);
    // T4's two, 63 days old now
    expect(step.left).toBe(2);
    await expectKeptAsCounted();
  });

  it("sums a renamed test under the test it is now, and adds retention's roll-ups", async () => {
    const db = database.db;
    const [t0, t1, t2, t3] = tests as TestRef[];
    // T2 renamed to T3: T3 leads with their sum.
    await db.pool.query(
      `INSERT INTO test_aliases (test_id, canonical_id, source, created_by)
       VALUES ($1, $2, 'manual', 'tester')`,
      [t2!.id, t3!.id],
    );
    await expectKeptAsCounted();
    // Failures retention removed in the window, and one day before it (not counted).
    await db.pool.query(
      `INSERT INTO retention_test_days (day, family, test_id, failed)
       VALUES (current_date - 10, 'frontend', $1, 4), (current_date - 80, 'frontend', $2, 9)`,
      [t1!.id, t0!.id],
    );
    await expectKeptAsCounted();
  });

  it("counts again after a rerun re-ranks a counted run's attempts", async () => {
    const [, , , , , , t6] = tests as TestRef[];
    // The retry of "later"'s test a passes: its failure is no longer final.
    await post(`/v1/ingest/runs/later/results`, [
      { ...failure(t6!, "a", 1), test_run_test_id: "a#1", status: "passed", attempt: 1 },
    ]);
    const final = await database.db.pool.query(
      `SELECT is_final FROM results r JOIN runs ON runs.id = r.run_id
       WHERE runs.test_run_key = 'later' AND r.test_run_test_id = 'a'`,
    );
    expect(final.rows).toEqual([{ is_final: false }]);
    expect(await keptRows()).toBe(0);
    expect(await serviceAnswer()).toEqual(
      (await listTopFails(database.db, 2, 500)).map(({ family: _, ...row }) => row),
    );
    expect((await countStep(database.db)).rebuilt).toBe(true);
    await expectKeptAsCounted();
  });

  it("counts again after a counted run is deleted", async () => {
    await database.db.pool.query(`DELETE FROM runs WHERE test_run_key = 'later'`);
    expect(await keptRows()).toBe(0);
    expect((await countStep(database.db)).rebuilt).toBe(true);
    await expectKeptAsCounted();
  });
});
