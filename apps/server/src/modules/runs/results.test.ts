import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../../../test/build-test-app.js";
import {
  insertAttachment,
  insertResult,
  insertRun,
  insertTest,
  tagTest,
  type ResultRef,
  type RunRef,
  type TestRef,
} from "../../../test/factories.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";

let database: TestDatabase;
let app: FastifyInstance;
let run: RunRef;
let loginTest: TestRef;
let failed: ResultRef;
let retry: ResultRef;
let passed: ResultRef;
let pending: ResultRef;
let unstable: ResultRef;
let keys: { first: string; last: string; passedShot: string };

const failure = "Expected 'Welcome' but got 'Error'. Known: nxl-123, see also NXL-45 and nxl-123";

beforeAll(async () => {
  database = await createTestDatabase();
  app = (await buildTestApp(database.db)).app;
  const db = database.db;
  run = await insertRun(db, { test_run_key: "run 2025/01", failed: 2, passed: 1, pending: 1 });
  loginTest = await insertTest(db, { id: 4242, title: "Login works" });
  const common = {
    title: "Login works",
    scenario: "Site user logs in",
    file: "features/login.feature",
    tags: ["@smoke", "@login"],
    nora_site: "dev1.example.com",
    version: "5.2.0",
    chrome_version: "126.0",
    platform: "linux",
    commit_hash: "abc123",
    branch: "master",
    executor: "robot",
  };
  // The first attempt failed and was retried: both attempts are listed, the retry is final.
  retry = await insertResult(db, run, loginTest, {
    ...common,
    test_run_test_id: "login#0",
    status: "failed",
    is_final: false,
    error_message: "timeout",
    start_time: "2025-01-01T10:00:00Z",
  });
  failed = await insertResult(db, run, loginTest, {
    ...common,
    test_run_test_id: "login works#1",
    attempt: 1,
    status: "failed",
    error_message: failure,
    description: "A site user signs in",
    body: "Given I open the login page",
    console_errors: "TypeError: x is undefined",
    request_errors: "GET /api/me 500",
    root_path: "/srv/tests",
    start_time: "2025-01-01T10:01:00Z",
    end_time: "2025-01-01T10:01:30.250Z",
    duration_ms: 30_250,
    json_steps: [
      { action: "Given I open the login page", passed: true, location: "login.feature:4" },
      { action: "Then I see Welcome", passed: false, location: "12", duration_ms: 40 },
      { action: "And I log out", passed: null },
    ],
    json_before_steps: [{ action: "Before: reset data", passed: true, duration_ms: 5 }],
  });
  const first = await insertAttachment(db, failed, { description: "page", step_index: 0 });
  await insertAttachment(db, failed, {
    name: "video.webm",
    content_type: "video/webm",
    object_key: "objects/video.webm",
  });
  const last = await insertAttachment(db, failed, {
    description: "error",
    step_index: 1,
    taken_at: "2025-01-01T10:01:29Z",
    content_type: "image/jpeg",
  });
  passed = await insertResult(db, run, await insertTest(db), { status: "passed" });
  const passedShot = await insertAttachment(db, passed);
  // Not an image: never the result's screenshot, though it came last.
  await insertAttachment(db, passed, { content_type: "text/plain", object_key: "objects/log.txt" });
  pending = await insertResult(db, run, await insertTest(db), {
    status: "failed",
    error_message: "Pending reason == waiting for nxl-77",
  });
  const unstableTest = await insertTest(db);
  await tagTest(db, "@unstable", unstableTest);
  unstable = await insertResult(db, run, unstableTest, { status: "failed", error_message: "x" });
  keys = { first: first.object_key, last: last.object_key, passedShot: passedShot.object_key };
});
afterAll(async () => {
  await app.close();
  await database.drop();
});

async function get(url: string) {
  return app.inject({ method: "GET", url });
}
const runUrl = () => `/v1/test-runs/${encodeURIComponent(run.test_run_key)}`;

describe("GET /v1/test-runs/{key}", () => {
  it("answers the run and every attempt in report order, without steps or script", async () => {
    const res = await get(runUrl());
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.run).toMatchObject({ test_run_key: "run 2025/01", failed: 1, unstable: 1 });
    expect(body.results.map((r: { id: number }) => r.id)).toEqual(
      [retry, failed, passed, pending, unstable].map((r) => r.id),
    );
    expect(body.results[1]).toEqual({
      id: failed.id,
      test_run_key: "run 2025/01",
      test_run_test_id: "login works#1",
      test_id: 4242,
      name: "Login works",
      title: "Login works",
      scenario: "Site user logs in",
      file: "features/login.feature",
      status: "failed",
      passed: false,
      derived_status: "failed",
      pending_reason: null,
      tickets: ["NXL-123", "NXL-45"],
      error_message: failure,
      tags: ["@smoke", "@login"],
      duration_ms: 30_250,
      start_time: "2025-01-01T10:01:00.000Z",
      end_time: "2025-01-01T10:01:30.250Z",
      nora_site: "dev1.example.com",
      version: "5.2.0",
      chrome_version: "126.0",
      platform: "linux",
      commit_hash: "abc123",
      branch: "master",
      executor: "robot",
      attempt: 1,
      is_final: true,
      flaky: false,
      screenshot: keys.last,
    });
  });

  it("marks retries, pending and unstable results, and each result's last screenshot", async () => {
    const results = (await get(runUrl())).json().results;
    const [first, , ok, skipped, flaky] = results;
    expect(first).toMatchObject({ attempt: 0, is_final: false, tickets: [], screenshot: null });
    expect(ok).toMatchObject({
      derived_status: "passed",
      passed: true,
      screenshot: keys.passedShot,
    });
    expect(skipped).toMatchObject({
      status: "failed",
      derived_status: "skipped",
      pending_reason: "waiting for nxl-77",
      tickets: ["NXL-77"],
    });
    expect(flaky).toMatchObject({ status: "failed", derived_status: "unstable" });
  });

  it("answers 404 for an unknown key and for a run of another family", async () => {
    await insertRun(database.db, { test_run_key: "api-run", family: "backend" });
    for (const key of ["nope", "api-run"]) {
      const res = await get(`/v1/test-runs/${key}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({
        error: { code: "not_found", message: `No test run with key ${key}.` },
      });
    }
  });
});

describe("GET /v1/test-detail/{key}/{id}", () => {
  const detailUrl = (id: string) => `${runUrl().replace("test-runs", "test-detail")}/${id}`;

  it("answers the full result: steps, screenshots, script, logs and the error screenshot", async () => {
    const res = await get(detailUrl(encodeURIComponent("login works#1")));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      id: failed.id,
      test_run_test_id: "login works#1",
      derived_status: "failed",
      tickets: ["NXL-123", "NXL-45"],
      description: "A site user signs in",
      body: "Given I open the login page",
      console_errors: "TypeError: x is undefined",
      request_errors: "GET /api/me 500",
      root_path: "/srv/tests",
      screenshot: keys.last,
      error_screenshot: keys.last,
    });
    expect(body.json_steps).toEqual([
      {
        action: "Given I open the login page",
        passed: true,
        codeLocation: "login.feature:4",
        duration_ms: null,
      },
      { action: "Then I see Welcome", passed: false, codeLocation: "12", duration_ms: 40 },
      { action: "And I log out", passed: null, codeLocation: null, duration_ms: null },
    ]);
    expect(body.json_before_steps).toEqual([
      { action: "Before: reset data", passed: true, codeLocation: null, duration_ms: 5 },
    ]);
    expect(body.screenshots).toEqual([
      {
        id: expect.any(Number),
        description: "page",
        screenshotpath: keys.first,
        timestamp: null,
        step_index: 0,
        content_type: "image/png",
      },
      {
        id: expect.any(Number),
        description: "error",
        screenshotpath: keys.last,
        timestamp: "2025-01-01T10:01:29.000Z",
        step_index: 1,
        content_type: "image/jpeg",
      },
    ]);
  });

  it("lists the test's attempts in the run with either attempt's detail, and only its own", async () => {
    for (const shown of ["login#0", "login works#1"]) {
      const body = (await get(detailUrl(encodeURIComponent(shown)))).json();
      expect(
        body.attempts.map((a: { test_run_test_id: string; attempt: number; is_final: boolean }) => [
          a.test_run_test_id,
          a.attempt,
          a.is_final,
        ]),
      ).toEqual([
        ["login#0", 0, false],
        ["login works#1", 1, true],
      ]);
    }
    const once = (await get(detailUrl(passed.test_run_test_id))).json();
    expect(once.attempts.map((a: { id: number }) => a.id)).toEqual([passed.id]);
  });

  it("has no error screenshot for a passed result", async () => {
    const body = (await get(detailUrl(passed.test_run_test_id))).json();
    expect(body.screenshots).toHaveLength(1);
    expect(body.error_screenshot).toBeNull();
    expect(body.json_steps).toEqual([]);
  });

  it("answers 404 for an unknown result or run", async () => {
    const res = await get(detailUrl("nope"));
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe("No test nope in test run run 2025/01.");
    const noRun = await get("/v1/test-detail/nope/login%231");
    expect(noRun.statusCode).toBe(404);
    expect(noRun.json().error.message).toBe("No test run with key nope.");
  });
});
