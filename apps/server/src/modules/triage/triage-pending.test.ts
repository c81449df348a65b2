import type { FlakyDetail } from "@assay/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestApp } from "../../../test/build-test-app.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { stepsDone } from "../../../test/steps-done.js";
import { TEST_INGEST_TOKEN, upload } from "../../../test/upload.js";
import { withTransaction } from "../../db/pool.js";
import { nameOf } from "../../db/results-sql.js";
import { AfterCommitSteps, sweepPending } from "../pending/pending.service.js";
import { retriage } from "./fingerprints.service.js";
import { markForTriage, triageMarked, triageStep, type TriageDeps } from "./pending.service.js";

/**
 * Triage after the upload's commit (pending.service.ts): an upload marks its run, and the run is
 * triaged after the answer by its server, by the first read that needs its groups, or by the
 * sweep when its server died first. Runs here are stored by an app with triage off (nothing
 * marks or triages them) and marked by hand, as a server that died right after its commit
 * leaves them.
 */

let database: TestDatabase;
let untriaging: TestApp;
let app: TestApp;
let deps: TriageDeps;

beforeAll(async () => {
  database = await createTestDatabase();
  const env = { ASSAY_INGEST_TOKEN: TEST_INGEST_TOKEN };
  untriaging = await buildTestApp(database.db, { env, triage: false });
  app = await buildTestApp(database.db, { env });
  deps = { db: database.db, settings: { similarity: 0.6 } };
});
afterAll(async () => {
  await app.app.close();
  await untriaging.app.close();
  await database.drop();
});

/** A JUnit report of three failures with two causes of its own (named by `word`), and a pass. */
function junit(word: string): string {
  const n = word.length;
  const failure = (name: string, message: string, frame: string) =>
    `<testcase classname="api.Orders" name="${name}" time="0.1"><failure message="${message}" type="java.lang.AssertionError">java.lang.AssertionError: ${message}\n\tat com.example.api.${frame}(Client.java:4)</failure></testcase>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="api.Orders" tests="4">
${failure("lists", `expected 200 but got 500 for /api/${word}/${n}`, "OrderClient.list")}
${failure("cancels", `expected 200 but got 500 for /api/${word}/${n + 1}`, "OrderClient.list")}
${failure("ships", `no carrier for ${word} order ${n}`, "ShipClient.ship")}
<testcase classname="api.Orders" name="passes" time="0.1"/>
</testsuite>
`;
}

/** A run stored by the app without triage; answers its key and id. */
async function storeUntriaged(runKey: string): Promise<{ key: string; id: number }> {
  const res = await upload(
    untriaging.app,
    [{ name: "junit.xml", content: junit(runKey.replace(/[^a-z]/g, "")) }],
    {
      family: "backend",
      run_key: runKey,
    },
  );
  expect(res.statusCode, res.body).toBe(201);
  const { rows } = await database.db.pool.query<{ id: string }>(
    "SELECT id FROM runs WHERE test_run_key = $1",
    [runKey],
  );
  return { key: runKey, id: Number(rows[0]?.id) };
}

const mark = (runId: number) =>
  withTransaction(database.db, (client) => markForTriage(client, runId));

async function filedOf(runId: number): Promise<number> {
  const { rows } = await database.db.pool.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM result_fingerprints WHERE run_id = $1",
    [runId],
  );
  return rows[0]?.n ?? 0;
}

async function isMarked(runId: number): Promise<boolean> {
  const { rowCount } = await database.db.pool.query(
    "SELECT 1 FROM run_pending WHERE kind = 'triage' AND run_id = $1",
    [runId],
  );
  return rowCount === 1;
}

describe("a run triaged after its upload's commit", () => {
  it("is triaged by its server in the background, with no read asking", async () => {
    const res = await upload(app.app, [{ name: "junit.xml", content: junit("background") }], {
      family: "backend",
      run_key: "background",
    });
    expect(res.statusCode, res.body).toBe(201);
    await stepsDone(database.db);
    const { rows } = await database.db.pool.query<{ id: string }>(
      "SELECT id FROM runs WHERE test_run_key = 'background'",
    );
    expect(await filedOf(Number(rows[0]?.id))).toBe(3);
  });

  it("is triaged by the gate when nobody triaged it, and judged on its failures", async () => {
    const run = await storeUntriaged("left-by-a-dead-server");
    await mark(run.id);
    expect(await filedOf(run.id)).toBe(0);
    const gate = await app.app.inject({
      method: "GET",
      url: `/v1/runs/${run.key}/gate?max_new=0`,
      headers: { authorization: `Bearer ${TEST_INGEST_TOKEN}` },
    });
    expect(gate.statusCode, gate.body).toBe(200);
    expect(gate.json()).toMatchObject({ passed: false, counts: { failed: 3, newFailures: 3 } });
    expect(await filedOf(run.id)).toBe(3);
    expect(await isMarked(run.id)).toBe(false);
  });

  it("is triaged by a flaky test's evidence, whose groups then hold its failure", async () => {
    const run = await storeUntriaged("read-by-flaky");
    await mark(run.id);
    const { rows } = await database.db.pool.query<{ id: number }>(
      `SELECT DISTINCT test_id::int AS id FROM results
        WHERE run_id = $1 AND status = 'failed' AND ${nameOf("results")} = 'ships'`,
      [run.id],
    );
    const res = await app.app.inject({
      method: "GET",
      url: `/v1/flaky-tests/${rows[0]!.id}`,
      headers: { authorization: `Bearer ${TEST_INGEST_TOKEN}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    const [context] = (res.json() as FlakyDetail).contexts;
    const failed = context!.runs.filter((r) => r.outcome === "f");
    expect(failed.map((r) => r.runKey)).toContain(run.key);
    // Every failure of the window is in a group, the unread run's too.
    const grouped = context!.groups.reduce((sum, group) => sum + group.failures, 0);
    expect(grouped).toBe(failed.length);
    expect(await isMarked(run.id)).toBe(false);
  });

  it("is swept when marked over the sweep's age and no live server holds it", async () => {
    const run = await storeUntriaged("swept");
    await mark(run.id);
    // Marked just now: a live server may be about to triage it.
    expect(await sweepPending(triageStep(deps), 60_000)).toBe(0);
    // Held by a live server: left to it.
    const holder = await database.db.pool.connect();
    try {
      await holder.query("BEGIN");
      await holder.query(
        "SELECT 1 FROM run_pending WHERE kind = 'triage' AND run_id = $1 FOR UPDATE",
        [run.id],
      );
      expect(await sweepPending(triageStep(deps), 0)).toBe(0);
      await holder.query("ROLLBACK");
    } finally {
      holder.release();
    }
    expect(await isMarked(run.id)).toBe(true);
    // Its holder gone (a dead server's connection): the sweep triages it.
    expect(await sweepPending(triageStep(deps), 0)).toBe(1);
    expect(await filedOf(run.id)).toBe(3);
    expect(await isMarked(run.id)).toBe(false);
  });

  it("triages a run marked by two uploads once, up to the newest mark", async () => {
    const run = await storeUntriaged("marked-twice");
    const first = await mark(run.id);
    const second = await mark(run.id);
    expect(second).toBeGreaterThan(first);
    expect(await triageMarked(deps, run.id)).toBe(true);
    expect(await filedOf(run.id)).toBe(3);
    // The second upload's own triage finds nothing left to do.
    expect(await triageMarked(deps, run.id)).toBe(false);
  });

  it("waits for an upload writing into the run instead of deadlocking with it", async () => {
    const run = await storeUntriaged("sharded");
    await mark(run.id);
    // A second shard's upload: it holds the run from its start and marks it at its end.
    const shard = await database.db.pool.connect();
    try {
      await shard.query("BEGIN");
      await shard.query("SELECT 1 FROM runs WHERE id = $1 FOR UPDATE", [run.id]);
      const triage = triageMarked(deps, run.id);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const again = await markForTriage(shard, run.id);
      await shard.query("COMMIT");
      // Triage took the run after the shard, so the shard's mark is the one it triaged.
      expect(await triage).toBe(true);
      expect(again).toBeGreaterThan(0);
    } finally {
      shard.release();
    }
    expect(await isMarked(run.id)).toBe(false);
    expect(await filedOf(run.id)).toBe(3);
  });

  it("leaves the runs it had not started marked when its server closes", async () => {
    const runs = [await storeUntriaged("closing-1"), await storeUntriaged("closing-2")];
    const afterCommit = new AfterCommitSteps();
    for (const run of runs) {
      await mark(run.id);
      afterCommit.start(triageStep(deps), run.id);
    }
    await afterCommit.close();
    // Nothing runs after close; whatever was not triaged is still marked, and swept.
    const states = await Promise.all(
      runs.map(async (run) => ({ marked: await isMarked(run.id), filed: await filedOf(run.id) })),
    );
    for (const state of states) expect(state.marked || state.filed === 3).toBe(true);
    await sweepPending(triageStep(deps), 0);
    for (const run of runs) expect(await filedOf(run.id)).toBe(3);
  });
});

describe("triage derived again (the demo's retriage)", () => {
  it("waits for a step at work on a run instead of deadlocking with it", async () => {
    const run = await storeUntriaged("retriaged");
    await mark(run.id);
    // A step at work: it holds the run's mark, then writes triage's tables.
    const step = await database.db.pool.connect();
    try {
      await step.query("BEGIN");
      await step.query(
        "SELECT 1 FROM run_pending WHERE kind = 'triage' AND run_id = $1 FOR UPDATE",
        [run.id],
      );
      const again = retriage(deps.db, deps.settings);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await step.query("DELETE FROM result_fingerprints WHERE run_id = $1", [run.id]);
      await step.query("DELETE FROM run_pending WHERE kind = 'triage' AND run_id = $1", [run.id]);
      await step.query("COMMIT");
      await again;
    } finally {
      step.release();
    }
    // Derived again from the stored runs, this one among them.
    expect(await isMarked(run.id)).toBe(false);
    expect(await filedOf(run.id)).toBe(3);
  });
});
