import { readFileSync } from "node:fs";
import { BUILD_MESSAGES } from "@assay/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildBuildApp,
  insertBuildUser,
  runnerReport,
  RUNNER_ARGV,
  waitForEnd,
  type BuildApp,
} from "../../../test/build-apps.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";

let database: TestDatabase;
let app: BuildApp;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await buildBuildApp(database, { user: await insertBuildUser(database) });
});
afterAll(async () => {
  await app?.close();
  await database.drop();
});

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  app.app.inject({ method: "POST", url, payload: payload as object, headers });
const buildCount = async () =>
  Number((await database.db.pool.query("SELECT count(*) AS n FROM builds")).rows[0].n);
const log = async (id: number) =>
  (await app.app.inject({ method: "GET", url: `/v1/builds/${id}` })).json().log.text as string;

describe("POST /v1/builds", () => {
  it("refuses an invalid payload with the dialog's message and records nothing", async () => {
    const before = await buildCount();
    const res = await post("/v1/builds", {
      nora_site: "dev1.example.com",
      mode: "oq_test",
      releaseId: 12,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      code: "invalid_build",
      message: `mode: ${BUILD_MESSAGES.spiraCredentials}`,
    });
    const load = await post("/v1/load/builds", {
      env: "dev1",
      branch: "master",
      testFile: "a.py",
      runTime: "5",
      users: 2,
      spawnRate: 1,
      loadRegion: "us-west-2",
    });
    expect(load.json().error.message).toBe(`runTime: ${BUILD_MESSAGES.invalidDuration}`);
    expect(await buildCount()).toBe(before);
  });

  it("refuses an OQ run that names no release, and records nothing", async () => {
    const before = await buildCount();
    const res = await post("/v1/builds", { nora_site: "dev1.example.com", mode: "oq_test" });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toContain(`releaseId: ${BUILD_MESSAGES.oqReleaseRequired}`);
    expect(await buildCount()).toBe(before);
  });

  it("refuses signed-out callers with 401", async () => {
    const res = await post(
      "/v1/builds",
      { nora_site: "dev1.example.com" },
      { "x-test-signed-out": "1" },
    );
    expect(res.statusCode).toBe(401);
  });

  it("runs the build locally with the runner contract, and its results land in its run", async () => {
    const res = await post("/v1/builds", {
      nora_site: "dev1.example.com",
      mode: "by_tags",
      tag: "@smoke,@login",
      branch: "feature/x",
    });
    expect(res.statusCode).toBe(201);
    const created = res.json().build;
    expect(created).toMatchObject({
      family: "frontend",
      region: "US",
      NORA_SITE: "dev1.example.com",
      TEST_TAG: "@smoke,@login",
      sourceVersion: "feature/x",
      EXECUTOR: "QA Engineer",
      executorKind: "local",
      buildStatus: "IN_PROGRESS",
      startedBy: { email: "qa@example.com", name: "QA Engineer" },
    });

    const ended = await waitForEnd(app.app, created.id);
    expect(ended).toMatchObject({ buildStatus: "SUCCEEDED", currentPhase: "COMPLETED" });
    expect(ended.endTime).not.toBeNull();
    const report = runnerReport(ended.log.text);
    expect(report.argv).toEqual(RUNNER_ARGV.slice(2));
    expect(report.env).toMatchObject({
      ASSAY_URL: app.url,
      ASSAY_RUN_KEY: created.test_run_key,
      ASSAY_BUILD_ID: String(created.id),
      ASSAY_ATTEMPT: "0",
      TEST_TAG: "@smoke,@login",
      NORA_SITE: "dev1.example.com",
      BRANCH: "feature/x",
      PARALLEL_RUNNERS: "1",
      MODE: "by_tags",
      IS_NEXT_GEN: "false",
      BUILD_REGION: "US",
    });
    expect(report.env.ASSAY_TOKEN).toMatch(/^<\d+ chars>$/);
    // The server's own secrets never reach a runner: only PATH and HOME are passed through.
    expect(report.env.DATABASE_URL).toBeUndefined();
    expect(ended.log.text).toContain("UPLOAD 201");
    // The token may ingest into its own run only.
    expect(ended.log.text).toContain("OTHER_RUN 403");

    const { run } = (
      await app.app.inject({ method: "GET", url: `/v1/test-runs/${created.test_run_key}` })
    ).json();
    expect(run).toMatchObject({
      test_run_key: created.test_run_key,
      total: 2,
      passed: 1,
      failed: 1,
    });
    const builds = (
      await app.app.inject({
        method: "GET",
        url: `/v1/builds?test_run_key=${created.test_run_key}`,
      })
    ).json();
    expect(builds.items.map((b: { id: number }) => b.id)).toEqual([created.id]);

    const download = await app.app.inject({ method: "GET", url: `/v1/builds/${created.id}/log` });
    expect(download.statusCode).toBe(200);
    expect(download.headers["content-disposition"]).toBe(
      `attachment; filename="build-${created.id}.log"`,
    );
    expect(download.body).toContain("RUNNER ");
  });

  it("rejects the build token once the build has ended", async () => {
    const res = await post("/v1/builds", { nora_site: "dev1.example.com" });
    const ended = await waitForEnd(app.app, res.json().build.id);
    expect(ended.buildStatus).toBe("SUCCEEDED");
    const upload = await app.app.inject({
      method: "POST",
      url: "/v1/ingest/runs",
      headers: { authorization: "Bearer assay_build_not-a-live-token" },
      payload: { run_key: ended.test_run_key },
    });
    expect(upload.statusCode).toBe(401);
  });

  it("fails a build whose runner fails, with the exit code in its message", async () => {
    const res = await post("/v1/api/builds", {
      env: "dev1",
      branch: "master",
      mode: "by_tags",
      tag: "@fail",
    });
    expect(res.json().build).toMatchObject({
      family: "backend",
      ENVIRONMENT: "dev1",
      BASE_URL: null,
    });
    const ended = await waitForEnd(app.app, res.json().build.id);
    expect(ended).toMatchObject({
      buildStatus: "FAILED",
      statusMessage: "The runner exited with code 3; see the build log.",
    });
  });
});

describe("lists", () => {
  it("lists each family newest first, paged, with the count of active builds", async () => {
    const first = (
      await post("/v1/load/builds", {
        env: "dev1",
        branch: "master",
        testFile: "nextgen/a.py",
        runTime: "5m",
        users: 20,
        spawnRate: 0.2,
        loadRegion: "us-west-2",
      })
    ).json().build;
    const second = (
      await post("/v1/load/builds", {
        env: "other",
        host: "load.example.com",
        branch: "master",
        testFile: "nextgen/a.py",
        runTime: "20s",
        users: 2,
        spawnRate: 1,
        loadRegion: "eu-central-1",
      })
    ).json().build;
    expect(second).toMatchObject({
      ENV: "other",
      HOST: "load.example.com",
      TEST_FILE: "nextgen/a.py",
      USERS: 2,
      RUN_TIME: "20s",
      SPAWN_RATE: 1,
    });
    const page = (
      await app.app.inject({ method: "GET", url: "/v1/load/builds?page_size=10" })
    ).json();
    expect(page.items.slice(0, 2).map((b: { id: number }) => b.id)).toEqual([second.id, first.id]);
    expect(page.total).toBe(2);
    const frontend = (await app.app.inject({ method: "GET", url: "/v1/china/builds" })).json();
    expect(frontend.items.every((b: { region: string }) => b.region === "CHINA")).toBe(true);
    await waitForEnd(app.app, first.id);
    await waitForEnd(app.app, second.id);
  });
});

describe("POST /v1/builds/{id}/stop", () => {
  it("ends the runner's whole process group and marks the build STOPPED", async () => {
    const created = (
      await post("/v1/china/builds", {
        nora_site: "dev1.example.com",
        mode: "by_tags",
        tag: "@sleep",
      })
    ).json().build;
    expect(created.region).toBe("CHINA");
    let text = "";
    for (let i = 0; i < 100 && !text.includes("CHILD "); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      text = await log(created.id);
    }
    const childPid = Number(/CHILD (\d+)/.exec(text)![1]);
    const res = await post(`/v1/builds/${created.id}/stop`, {});
    expect(res.statusCode).toBe(200);
    const ended = await waitForEnd(app.app, created.id);
    expect(ended).toMatchObject({
      buildStatus: "STOPPED",
      statusMessage: "Stopped by QA Engineer.",
    });
    // The runner's own child went with it (gone, or a zombie waiting for its new parent to reap it).
    const alive = () => {
      try {
        return !/^State:\s+Z/m.test(readFileSync(`/proc/${childPid}/status`, "utf8"));
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 50 && alive(); i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(alive()).toBe(false);
    const again = await post(`/v1/builds/${created.id}/stop`, {});
    expect(again.statusCode).toBe(409);
  });
});

describe("rerun", () => {
  it("reruns only the failed tests into the same run as new attempts; a pass is flaky", async () => {
    const created = (
      await post("/v1/builds", { nora_site: "dev1.example.com", mode: "by_tags", tag: "@smoke" })
    ).json().build;
    await waitForEnd(app.app, created.id);
    const res = await post(`/v1/test-runs/${created.test_run_key}/rerun`, { tests: "failed" });
    expect(res.statusCode).toBe(201);
    const rerun = res.json().build;
    expect(rerun).toMatchObject({
      test_run_key: created.test_run_key,
      rerunOf: "failed",
      TEST_TAG: "TC9102",
      NORA_SITE: "dev1.example.com",
    });
    const ended = await waitForEnd(app.app, rerun.id);
    expect(runnerReport(ended.log.text).env.ASSAY_ATTEMPT).toBe("1");
    const { run, results } = (
      await app.app.inject({ method: "GET", url: `/v1/test-runs/${created.test_run_key}` })
    ).json();
    expect(run).toMatchObject({ total: 2, passed: 2, failed: 0, flaky: 1 });
    const attempts = results.filter((r: { test_id: number }) => r.test_id === 9102);
    expect(
      attempts.map((r: { status: string; is_final: boolean; flaky: boolean }) => [
        r.status,
        r.is_final,
        r.flaky,
      ]),
    ).toEqual([
      ["failed", false, false],
      ["passed", true, true],
    ]);
    const builds = (
      await app.app.inject({
        method: "GET",
        url: `/v1/builds?test_run_key=${created.test_run_key}`,
      })
    ).json();
    expect(builds.items.map((b: { id: number }) => b.id)).toEqual([rerun.id, created.id]);
    const nothing = await post(`/v1/test-runs/${created.test_run_key}/rerun`, { tests: "failed" });
    expect(nothing.statusCode).toBe(409);
    expect(
      (await post(`/v1/test-runs/${created.test_run_key}/rerun`, { tests: "all" })).statusCode,
    ).toBe(400);
    expect((await post(`/v1/test-runs/no-such-run/rerun`, { tests: "failed" })).statusCode).toBe(
      404,
    );
  });
});
