import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAILURE_TEXT_CHARS } from "@assay/core";
import { buildTagApps, type TagApps } from "../../../test/tag-apps.js";
import { buildTestApp } from "../../../test/build-test-app.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { stepsDone } from "../../../test/steps-done.js";
import { TEST_INGEST_TOKEN, upload } from "../../../test/upload.js";
import { retriage } from "./fingerprints.service.js";

/**
 * Each upload's run is triaged after its commit (pending.service.ts): a report upload's run once,
 * a live run after each batch and at its finish, a run with shards after each shard. Filed that
 * way, a run must be filed exactly as the backfill files the stored run at once: this uploads
 * failures that test what the two could disagree on (texts cut past FAILURE_TEXT_CHARS code
 * points, NUL, pending, start times, facts the run gives), then derives triage again from the
 * stored runs and compares every row.
 */

let database: TestDatabase;
let apps: TagApps;

beforeAll(async () => {
  database = await createTestDatabase();
  apps = await buildTagApps(database);
});
afterAll(async () => {
  await apps.close();
  await database.drop();
});

const auth = { authorization: `Bearer ${TEST_INGEST_TOKEN}` };

/**
 * Dependency frames (astral characters in them: two UTF-16 units, one character) past the
 * cut, then the project's own frame, which a stack cut as the read cuts it does not have.
 */
const longStack = (n: number) => {
  const frame = "\tat org.junit.Runner.run(Runner😀.java:1)\n";
  const frames = frame.repeat(Math.ceil(FAILURE_TEXT_CHARS / [...frame].length));
  return `java.lang.AssertionError: order ${n} lost\n${frames}\tat com.example.api.Far.away(Far.java:${n})`;
};

const xml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");

function junit(): string {
  const failure = (name: string, message: string, stack: string) =>
    `<testcase classname="api.Orders" name="${name}" time="0.1"><failure message="${xml(message)}" type="java.lang.AssertionError">${xml(stack)}</failure></testcase>`;
  const cases = [
    `<testcase classname="api.Orders" name="passes" time="0.1"/>`,
    failure(
      "orders 1",
      "expected 200 but got 500 for /api/orders/1",
      "java.lang.AssertionError: expected 200 but got 500\n\tat com.example.api.OrderClient.fetch(OrderClient.java:40)",
    ),
    failure("orders 2", "expected 200 but got 500 for /api/orders/2", longStack(2)),
    failure("pending", "Pending reason == waiting for NXL-12", "at x.y(Z.java:1)"),
    failure("long message", `${"é".repeat(FAILURE_TEXT_CHARS + 10)} tail`, ""),
    // Retried by Surefire: a failed attempt, then a pass (flaky: no failure of the run) ...
    `<testcase classname="api.Orders" name="flaky" time="0.1"><flakyFailure message="socket closed by 10.0.0.7" type="java.io.IOException">java.io.IOException: socket closed\n\tat com.example.api.Net.read(Net.java:9)</flakyFailure></testcase>`,
    // ... and a first failure whose cause the final attempt shares (values aside): the upload
    // gives the cause's words with the first attempt, which is not final.
    `<testcase classname="api.Orders" name="slow" time="0.1"><failure message="timed out after 30 s" type="java.util.concurrent.TimeoutException">java.util.concurrent.TimeoutException\n\tat com.example.api.Slow.wait(Slow.java:3)</failure><rerunFailure message="timed out after 31 s" type="java.util.concurrent.TimeoutException">java.util.concurrent.TimeoutException\n\tat com.example.api.Slow.wait(Slow.java:3)</rerunFailure></testcase>`,
  ];
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="api.Orders" tests="${cases.length}">\n${cases.join("\n")}\n</testsuite>\n`;
}

/** Opens a live run (POST /v1/ingest/runs); returns its key. */
async function openRun(payload: Record<string, string>): Promise<string> {
  const opened = await apps.withToken.inject({
    method: "POST",
    url: "/v1/ingest/runs",
    headers: auth,
    payload,
  });
  expect(opened.statusCode, opened.body).toBe(201);
  return opened.json().test_run_key as string;
}

/** Every row triage filed, without the ids and times a second filing gives anew. */
async function filed() {
  await stepsDone(database.db);
  const { rows: fingerprints } = await database.db.pool.query(
    `SELECT f.result_id::int, f.test_id::int, f.run_id::int, g.fingerprint, f.platform, f.branch,
            f.nora_site AS site, f.seen_at
     FROM result_fingerprints f JOIN failure_groups g ON g.id = f.group_id ORDER BY f.result_id`,
  );
  const { rows: groups } = await database.db.pool.query(
    `SELECT fingerprint, error_type, message, frame, first_result_id::int, first_seen_at,
            last_seen_at
     FROM failure_groups ORDER BY fingerprint`,
  );
  return { fingerprints, groups };
}

describe("triage of an upload's failures", () => {
  it("files each upload's failures after its commit exactly as the backfill would", async () => {
    const reported = await upload(
      apps.withToken,
      [{ name: "TEST-api.Orders.xml", content: junit() }],
      { family: "backend", executor: "nightly", branch: "main", nora_site: "staging" },
    );
    expect(reported.statusCode, reported.body).toBe(201);

    const key = await openRun({
      family: "frontend",
      nora_site: "stage.example.com",
      branch: "release",
    });
    const appended = await apps.withToken.inject({
      method: "POST",
      url: `/v1/ingest/runs/${key}/results`,
      headers: auth,
      payload: [
        {
          test_run_test_id: "nul",
          name: "a NUL in its message",
          status: "failed",
          error_name: "TypeError",
          error_message: "cannot read id of undefined",
          error_stack: "TypeError: cannot read id\n    at Cart.add (src/cart.ts:12:3)",
          start_time: "2026-11-28T23:59:59.123456+02:00",
          platform: "windows",
        },
        {
          test_run_test_id: "own-site",
          name: "its own site and branch, no start",
          status: "failed",
          error_message: "expected 3 items to equal 4 items",
          nora_site: "prod.example.com",
          branch: "hotfix",
        },
        { test_run_test_id: "ok", name: "passes", status: "passed" },
      ],
    });
    expect(appended.statusCode, appended.body).toBe(200);

    // A NUL (refused by the JSON API, possible in a report file) is stored as U+FFFD.
    const ctrf = {
      results: {
        tool: { name: "jest" },
        summary: {
          tests: 1,
          passed: 0,
          failed: 1,
          pending: 0,
          skipped: 0,
          other: 0,
          start: 0,
          stop: 0,
        },
        tests: [
          {
            name: "a NUL in its message",
            status: "failed",
            duration: 5,
            start: 1795354259123,
            message: "cannot read id\u0000 of undefined",
            trace: "TypeError: cannot read id\n    at Cart.add (src/cart.ts:12:3)",
          },
        ],
      },
    };
    // Into a run opened with a site and no results yet: the upload names no site, the run's is
    // its failures' (as the read takes it from the run).
    await openRun({ family: "frontend", nora_site: "shard.example.com", run_key: "ctrf-shard" });
    const nul = await upload(
      apps.withToken,
      [{ name: "ctrf.json", content: JSON.stringify(ctrf) }],
      { family: "frontend", run_key: "ctrf-shard" },
    );
    expect(nul.statusCode, nul.body).toBeLessThan(300);

    const fromUploads = await filed();
    const { rows: frames } = await database.db.pool.query(
      "SELECT frame FROM failure_groups WHERE message LIKE '%/api/orders/%' ORDER BY frame",
    );
    // The long stack is cut before its own frame (the cut line's remains make a frame of their own).
    expect(frames).toHaveLength(2);
    expect(frames).not.toContainEqual({ frame: "com.example.api.Far.away" });
    // The three runs' failures: four of the JUnit report (not the pending one, nor the retried
    // tests' first attempts), two of the live run, one of the CTRF report.
    expect(fromUploads.fingerprints).toHaveLength(7);
    expect(fromUploads.fingerprints.map((row) => row.site)).toEqual(
      expect.arrayContaining([
        "staging",
        "stage.example.com",
        "prod.example.com",
        "shard.example.com",
      ]),
    );

    // The backfill reads each stored run and fingerprints it: the same rows, to the millisecond.
    await retriage(database.db, { similarity: 0.6 });
    expect(await filed()).toEqual(fromUploads);
  });
});

// The write bench compares uploads with and without triage (BENCH_TRIAGE=off): its "without"
// server must really skip it (no mark, no triage after the commit), or the comparison would show
// triage as free.
describe("an app built with triage off (the write bench's comparison)", () => {
  it("stores an upload's failures without filing them", async () => {
    const app = await buildTestApp(database.db, {
      env: { ASSAY_INGEST_TOKEN: TEST_INGEST_TOKEN },
      triage: false,
    });
    try {
      const res = await upload(app.app, [{ name: "junit.xml", content: junit() }], {
        family: "backend",
        run_key: "untriaged",
      });
      expect(res.statusCode, res.body).toBe(201);
      const { rows } = await database.db.pool.query<{
        failed: number;
        filed: number;
        marked: number;
      }>(
        `SELECT runs.failed, (SELECT count(*)::int FROM result_fingerprints f
                              WHERE f.run_id = runs.id) AS filed,
                (SELECT count(*)::int FROM run_pending p
                 WHERE p.kind = 'triage' AND p.run_id = runs.id) AS marked
         FROM runs WHERE test_run_key = 'untriaged'`,
      );
      expect(rows).toEqual([{ failed: 4, filed: 0, marked: 0 }]);
    } finally {
      await app.app.close();
    }
  });
});
