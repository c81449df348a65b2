import { stepsOf } from "../../db/results-sql.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RetentionFileSchema, readRetentionPolicy } from "../../config-retention.js";
import { buildTestApp, type TestApp } from "../../../test/build-test-app.js";
import { insertAttachment, insertResult, insertRun, insertTest } from "../../../test/factories.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { periodStart } from "../dashboard/dashboard.service.js";
import { listTopFails } from "../runs/history.repo.js";
import { unstableCounts } from "../runs/runs.service.js";
import { countStep, runsLosingResults } from "../topfails/topfails.service.js";
import { estimateRetention } from "./retention.estimate.js";
import { runRetentionPass, type RetentionDeps } from "./retention.pass.js";

/*
 * A pass against known runs of known ages, with the policy: passed details 5 days, failed
 * details 20, passed results 30 (runs without failures go whole then), failures 40; backend
 * runs of release/* keep everything 100 days. Checked: exactly that goes, objects with it, the
 * dry run said so beforehand, and the Dashboard and Top Fails answer the same after.
 */

const DAY = 86_400_000;
const DAILY = "daily robot executor";
const today = periodStart(new Date(), 1);
const daysAgo = (n: number) => new Date(today.getTime() - n * DAY + 2 * 3_600_000);
const policy = readRetentionPolicy(
  RetentionFileSchema.parse({
    default: { passedDetailsDays: 5, failedDetailsDays: 20, runsDays: 30, failuresDays: 40 },
    rules: [{ family: "backend", branch: "release/*", runsDays: 100, failuresDays: 100 }],
  }),
);
const STEPS = [{ action: "open the page", passed: true }];

let database: TestDatabase;
let testApp: TestApp;
let deps: RetentionDeps;
const runs: Record<string, number> = {};
const results: Record<string, number> = {};
const objectKeys: Record<string, string> = {};

async function run(name: string, age: number, fields: Parameters<typeof insertRun>[1] = {}) {
  const at = daysAgo(age);
  const row = await insertRun(database.db, {
    test_run_key: name,
    family: "frontend",
    nora_site: "dev.legacy.example.com",
    executor: DAILY,
    created_at: at,
    started_at: at,
    ...fields,
  });
  runs[name] = row.id;
  return { ...row, at };
}

async function result(
  name: string,
  r: Awaited<ReturnType<typeof run>>,
  test: { id: number; title: string },
  status: "passed" | "failed",
) {
  const row = await insertResult(database.db, r, test, {
    status,
    start_time: r.at,
    json_steps: STEPS,
    json_before_steps: STEPS,
    error_message: status === "failed" ? "expected 1 to be 2" : null,
  });
  results[name] = row.id;
  const key = `retention-test/${name}.png`;
  await testApp.objects.put(key, Buffer.alloc(1000, 1), { contentType: "image/png" });
  await insertAttachment(database.db, row, { object_key: key, size: 1000 });
  objectKeys[name] = key;
}

const get = async (url: string) => (await testApp.app.inject({ method: "GET", url })).json();
const dashboard = () =>
  get("/v1/dashboard/daily-runs?family=frontend&platform=legacy&env=dev&days=90").then(
    (body: { days: { date: string; total: number; passed: number; failed: number }[] }) =>
      body.days.map(({ date, total, passed, failed }) => ({ date, total, passed, failed })),
  );

beforeAll(async () => {
  database = await createTestDatabase();
  testApp = await buildTestApp(database.db, { startWorkers: false });
  deps = {
    db: database.db,
    objects: testApp.objects,
    policy,
    log: testApp.app.log,
    unstableCounts: (ids) => unstableCounts(database.db, ids),
    resultsRemoving: runsLosingResults,
    batch: { results: 2, attachments: 2 },
  };
  const login = await insertTest(database.db, { title: "login works" });
  const logout = await insertTest(database.db, { title: "logout works" });
  const counts = { total: 2, passed: 1, failed: 1 };
  // 3 days: untouched. 10 days: passed details go. 25 days: failed details too.
  const fresh = await run("fresh", 3, counts);
  await result("fresh-pass", fresh, login, "passed");
  await result("fresh-fail", fresh, logout, "failed");
  const ten = await run("ten", 10, counts);
  await result("ten-pass", ten, login, "passed");
  await result("ten-fail", ten, logout, "failed");
  const twentyFive = await run("twentyFive", 25, counts);
  await result("twentyFive-pass", twentyFive, login, "passed");
  await result("twentyFive-fail", twentyFive, logout, "failed");
  // 35 days: the passed result goes, the failure stays; without failures, the run goes whole.
  const kept = await run("kept", 35, counts);
  await result("kept-pass", kept, login, "passed");
  await result("kept-fail", kept, logout, "failed");
  const clean = await run("clean", 35, { total: 2, passed: 2, failed: 0 });
  await result("clean-pass", clean, login, "passed");
  await result("clean-pass2", clean, logout, "passed");
  // 45 days: past failuresDays, gone whole with its failure.
  const old = await run("old", 45, counts);
  await result("old-pass", old, login, "passed");
  await result("old-fail", old, logout, "failed");
  // A backend release run of 45 days: its rule keeps its results 100 days.
  const release = await run("release", 45, {
    family: "backend",
    branch: "release/7.1",
    env: "dev",
    nora_site: null,
    total: 1,
    passed: 1,
  });
  await result("release-pass", release, login, "passed");
});

afterAll(async () => {
  await testApp?.app.close();
  await database?.drop();
});

async function resultRow(name: string) {
  const { rows } = await database.db.pool.query<{ steps: number; attachments: number }>(
    `SELECT jsonb_array_length(${stepsOf("r")}) + jsonb_array_length(${stepsOf("r", true)}) AS steps,
            (SELECT count(*)::int FROM attachments a WHERE a.result_id = r.id) AS attachments
     FROM results r WHERE id = $1`,
    [results[name]],
  );
  return rows[0] ?? "removed";
}

const objectThere = async (name: string) =>
  (await testApp.objects.get(objectKeys[name]!)) !== undefined;

describe("retention pass", () => {
  let before: { dashboard: unknown; fails: unknown };
  let estimate: Awaited<ReturnType<typeof estimateRetention>>;

  it("dry run: says what would go and what it would return, and removes nothing", async () => {
    before = { dashboard: await dashboard(), fails: await get("/v1/fails?limit=10") };
    estimate = await estimateRetention(database.db, policy);
    expect(estimate.plan.wholeRuns.sort()).toEqual([runs.clean, runs.old].sort());
    expect(estimate.plan.passedResultRuns).toEqual([runs.kept]);
    expect(estimate.runs).toBe(2);
    // clean's two, old's two, kept's passed one
    expect(estimate.results).toBe(5);
    // passed details of ten, twentyFive and release (its rule leaves them to the default),
    // failed details of twentyFive and kept
    expect(estimate.stepsTrimmed).toBe(5);
    // every removed or trimmed result had one 1000-byte attachment: 5 + 5
    expect(estimate.attachments).toBe(10);
    expect(estimate.objectBytes).toBe(10_000);
    expect(estimate.databaseBytes).toBeGreaterThan(0);
    expect(await resultRow("old-fail")).toEqual({ steps: 2, attachments: 1 });
    expect(await objectThere("old-fail")).toBe(true);
  });

  it("(Top Fails' totals are kept before the pass)", async () => {
    await countStep(database.db);
    const kept = await listTopFails(database.db, 2, 10, "kept");
    expect(kept.length).toBeGreaterThan(0);
    expect(kept).toEqual(await listTopFails(database.db, 2, 10));
  });

  it("removes exactly what the policy says, objects included, and records the pass", async () => {
    // Statistics give the index share per row its usual fraction of a byte (none: 0 a row).
    await database.db.pool.query(`ANALYZE results`);
    const outcome = await runRetentionPass(deps, "test-server", "cli");
    expect(outcome).toMatchObject({
      state: "finished",
      totals: { runs: 2, results: 5, stepsTrimmed: 5, attachments: 10, partitions: [] },
      objectBytesFreed: 10_000,
    });
    // Whole bytes, as the log, the CLI and the screen show them.
    expect(outcome!.bytesFreed).toBeGreaterThan(0);
    expect(Number.isInteger(outcome!.bytesFreed)).toBe(true);
    expect(await resultRow("fresh-pass")).toEqual({ steps: 2, attachments: 1 });
    expect(await resultRow("fresh-fail")).toEqual({ steps: 2, attachments: 1 });
    expect(await resultRow("ten-pass")).toEqual({ steps: 0, attachments: 0 });
    expect(await resultRow("ten-fail")).toEqual({ steps: 2, attachments: 1 });
    expect(await resultRow("twentyFive-pass")).toEqual({ steps: 0, attachments: 0 });
    expect(await resultRow("twentyFive-fail")).toEqual({ steps: 0, attachments: 0 });
    expect(await resultRow("kept-pass")).toBe("removed");
    expect(await resultRow("kept-fail")).toEqual({ steps: 0, attachments: 0 });
    for (const name of ["clean-pass", "clean-pass2", "old-pass", "old-fail"])
      expect(await resultRow(name)).toBe("removed");
    expect(await resultRow("release-pass")).toEqual({ steps: 0, attachments: 0 });
    const { rows } = await database.db.pool.query<{ key: string }>(
      `SELECT test_run_key AS key FROM runs ORDER BY id`,
    );
    expect(rows.map((r) => r.key)).toEqual(["fresh", "ten", "twentyFive", "kept", "release"]);
    for (const name of ["ten-pass", "kept-pass", "old-fail", "twentyFive-fail"])
      expect(await objectThere(name)).toBe(false);
    for (const name of ["fresh-pass", "ten-fail"]) expect(await objectThere(name)).toBe(true);
    // The Setting screen's answer.
    const status = await get("/v1/retention");
    expect(status.lastPass).toMatchObject({ state: "finished", runs: 2, results: 5 });
    expect(status.lastPass.objectBytesFreed).toBe(10_000);
  });

  it("keeps the Dashboard's daily counts and Top Fails from the roll-ups", async () => {
    expect(await dashboard()).toEqual(before.dashboard);
    expect(await get("/v1/fails?limit=10")).toEqual(before.fails);
    // Top Fails' kept totals had counted "old"'s failure, removed and rolled up: they are not
    // used until counted again, and then agree.
    expect(await listTopFails(database.db, 2, 10, "kept")).toEqual([]);
    // Marked when its results went, before the run itself (the runs between are not trusted).
    const state = await database.db.pool.query(`SELECT stale FROM topfails_state`);
    expect(state.rows).toEqual([{ stale: true }]);
    expect((await countStep(database.db)).rebuilt).toBe(true);
    const kept = await listTopFails(database.db, 2, 10, "kept");
    expect(kept.length).toBeGreaterThan(0);
    expect(kept).toEqual(await listTopFails(database.db, 2, 10));
    // Test History's pass rate: the removed results of "logout works" are counted per day.
    const { rows } = await database.db.pool.query<{ id: number }>(
      `SELECT id::int FROM tests WHERE title = 'logout works'`,
    );
    expect(await get(`/v1/retention/tests/${rows[0]!.id}`)).toMatchObject({
      passed: 1,
      failed: 1,
      skipped: 0,
    });
  });

  it("a second pass finds nothing left to do", async () => {
    const again = await estimateRetention(database.db, policy);
    expect([again.runs, again.results, again.stepsTrimmed, again.attachments]).toEqual([
      0, 0, 0, 0,
    ]);
  });
});

describe("two owners", () => {
  it("never run a pass at the same time: the second start finds the first's lease", async () => {
    const [a, b] = await Promise.all([
      runRetentionPass(deps, "server-a", "nightly"),
      runRetentionPass(deps, "server-b", "nightly"),
    ]);
    expect([a, b].filter((outcome) => outcome === null)).toHaveLength(1);
  });

  it("take over a pass whose owner stopped renewing its lease", async () => {
    await database.db.pool.query(
      `INSERT INTO retention_passes (owner, trigger, lease_until) VALUES ('dead', 'nightly', now() - interval '1 second')`,
    );
    const outcome = await runRetentionPass({ ...deps, leaseMs: 60_000 }, "server-c", "nightly");
    expect(outcome?.state).toBe("finished");
    const { rows } = await database.db.pool.query<{ state: string }>(
      `SELECT state FROM retention_passes WHERE owner = 'dead'`,
    );
    expect(rows[0]!.state).toBe("abandoned");
  });

  it("wait while a live pass holds the lease", async () => {
    await database.db.pool.query(
      `INSERT INTO retention_passes (owner, trigger, lease_until) VALUES ('alive', 'nightly', now() + interval '1 hour')`,
    );
    expect(await runRetentionPass(deps, "server-d", "nightly")).toBeNull();
    await database.db.pool.query(
      `UPDATE retention_passes SET state = 'abandoned' WHERE owner = 'alive'`,
    );
  });
});
