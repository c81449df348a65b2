import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestApp } from "../../../test/build-test-app.js";
import { stepsDone } from "../../../test/steps-done.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { TEST_INGEST_TOKEN, upload } from "../../../test/upload.js";
import { withTransaction } from "../../db/pool.js";
import { doMarked } from "../pending/pending.service.js";
import { flakyStep, markForFlaky, recount, untilCounted, type CountDeps } from "./stats.service.js";

/**
 * Flaky's count of a run after the commit that stored it (modules/pending): the upload marks the
 * run, its server counts it after the answer with the outcomes the upload wrote, a read counts
 * what is still marked, and one run is counted at a time.
 */

const SETTINGS = { window: 6, threshold: 0.1, decay: 0.1, minResults: 5 };
let database: TestDatabase;
let app: TestApp;
let deps: CountDeps;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await buildTestApp(database.db, { env: { ASSAY_INGEST_TOKEN: TEST_INGEST_TOKEN } });
  deps = { db: database.db, settings: SETTINGS };
});
afterAll(async () => {
  await app.app.close();
  await database.drop();
});

/** Stores a run of one test, `checkout` (failed or passed), on `branch`; answers its id. */
async function storeRun(branch: string, failed: boolean): Promise<number> {
  const inner = failed ? `<failure message="expected 200 but got 500">boom</failure>` : "";
  const xml = `<testsuite name="api.Orders"><testcase classname="api.Orders" name="checkout">${inner}</testcase></testsuite>`;
  const res = await upload(app.app, [{ name: "junit.xml", content: xml }], {
    family: "backend",
    branch,
  });
  expect(res.statusCode, res.body).toBe(201);
  const key = (res.json() as { test_run_key: string }).test_run_key;
  const { rows } = await database.db.pool.query<{ id: number }>(
    "SELECT id::float8 AS id FROM runs WHERE test_run_key = $1",
    [key],
  );
  return rows[0]!.id;
}

/** The window of `checkout` on `branch`: its outcomes and runs, oldest first. */
async function windowOn(branch: string) {
  const { rows } = await database.db.pool.query<{ outcomes: string; run_ids: number[] }>(
    "SELECT outcomes, run_ids::float8[] AS run_ids FROM flaky_stats WHERE branch = $1",
    [branch],
  );
  return rows[0] ?? null;
}

async function isMarked(runId: number): Promise<boolean> {
  const { rowCount } = await database.db.pool.query(
    "SELECT 1 FROM run_pending WHERE kind = 'flaky' AND run_id = $1",
    [runId],
  );
  return rowCount === 1;
}

/** The run's count undone and marked again, as a server that died after its commit leaves it. */
async function uncount(runId: number, branch: string): Promise<number> {
  await database.db.pool.query("DELETE FROM flaky_stats WHERE branch = $1", [branch]);
  await database.db.pool.query("DELETE FROM flaky_runs WHERE run_id = $1", [runId]);
  return withTransaction(database.db, (client) => markForFlaky(client, runId));
}

describe("a run counted after its upload's commit", () => {
  it("is counted by its server in the background, with no read asking", async () => {
    const runId = await storeRun("background", true);
    await stepsDone(database.db);
    expect(await isMarked(runId)).toBe(false);
    expect(await windowOn("background")).toEqual({ outcomes: "f", run_ids: [runId] });
  });

  it("is counted by the next read when nobody counted it", async () => {
    const runId = await storeRun("left", true);
    await stepsDone(database.db);
    await uncount(runId, "left");
    expect(await windowOn("left")).toBeNull();
    await untilCounted(deps);
    expect(await isMarked(runId)).toBe(false);
    expect(await windowOn("left")).toEqual({ outcomes: "f", run_ids: [runId] });
  });

  it("takes the upload's own outcomes only while its mark is the run's newest", async () => {
    const runId = await storeRun("carried", false);
    await stepsDone(database.db);
    const step = flakyStep(deps);
    // What an upload handed over (a failure, where the stored run passed) is used for its mark:
    const mine = await uncount(runId, "carried");
    const testId = Number(
      (await database.db.pool.query("SELECT test_id FROM results WHERE run_id = $1", [runId]))
        .rows[0]!.test_id,
    );
    const handed = [{ platform: "", branch: null, site: null, test_ids: [testId], outcomes: "f" }];
    await doMarked(step, runId, { carried: { mark: mine, value: handed } });
    expect(await windowOn("carried")).toEqual({ outcomes: "f", run_ids: [runId] });
    // ... and not once a later upload marked the run: the run is read as stored, a pass (a test
    // that only ever passed has no window).
    const older = await uncount(runId, "carried");
    await withTransaction(database.db, (client) => markForFlaky(client, runId));
    await doMarked(step, runId, { carried: { mark: older, value: handed } });
    expect(await isMarked(runId)).toBe(false);
    expect(await windowOn("carried")).toBeNull();
  });

  it("counts one run at a time, whichever server counts it", async () => {
    const first = await storeRun("together", true);
    const second = await storeRun("together", false);
    await stepsDone(database.db);
    expect(await windowOn("together")).toEqual({ outcomes: "fp", run_ids: [first, second] });
    await uncount(first, "together");
    await withTransaction(database.db, (client) => markForFlaky(client, second));
    // A peer counting holds the windows: this server's count waits for it.
    const peer = await database.db.pool.connect();
    try {
      await peer.query("BEGIN");
      await peer.query("SELECT pg_advisory_xact_lock(hashtext('assay.flaky-windows'))");
      let counted = false;
      const counting = doMarked(flakyStep(deps), first).then(() => (counted = true));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(counted).toBe(false);
      await peer.query("COMMIT");
      await counting;
    } finally {
      peer.release();
    }
    await doMarked(flakyStep(deps), second);
    expect(await windowOn("together")).toEqual({ outcomes: "fp", run_ids: [first, second] });
  });
});

describe("flaky counted again (the demo's recount)", () => {
  it("waits for a step at work on a run instead of deadlocking with it", async () => {
    await stepsDone(database.db);
    const runId = await storeRun("recounted", true);
    await stepsDone(database.db);
    await uncount(runId, "recounted");
    // A step at work: it holds the run's mark, then writes flaky's tables.
    const step = await database.db.pool.connect();
    try {
      await step.query("BEGIN");
      await step.query(
        "SELECT 1 FROM run_pending WHERE kind = 'flaky' AND run_id = $1 FOR UPDATE",
        [runId],
      );
      const again = recount(database.db, SETTINGS);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await step.query("DELETE FROM flaky_runs WHERE run_id = $1", [runId]);
      await step.query("DELETE FROM run_pending WHERE kind = 'flaky' AND run_id = $1", [runId]);
      await step.query("COMMIT");
      await again;
    } finally {
      step.release();
    }
    // Counted again from the stored runs, this one among them.
    expect(await isMarked(runId)).toBe(false);
    expect(await windowOn("recounted")).toEqual({ outcomes: "f", run_ids: [runId] });
  });
});
