import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildBuildApp,
  insertBuildUser,
  waitForEnd,
  type BuildApp,
} from "../../../test/build-apps.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { findExecutable } from "./executors/local.js";

/**
 * The shipped configuration (no `builds:` key) runs the example suites of examples/ on the local
 * executor against this server, and they report back through the runner contract.
 */

let database: TestDatabase;
let app: BuildApp;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await buildBuildApp(database, { user: await insertBuildUser(database), builds: "" });
});
afterAll(async () => {
  await app?.close();
  await database.drop();
});

const post = (url: string, payload: object) => app.app.inject({ method: "POST", url, payload });

describe("example suites on the default local executor", () => {
  it("the backend suite reports its API tests, with their request logs, into the build's run", async () => {
    const created = (await post("/v1/api/builds", { env: "dev1", branch: "master" })).json().build;
    const ended = await waitForEnd(app.app, created.id, 60_000);
    expect(ended.log.text).toContain("TC90104 This build is listed as running");
    expect(ended.buildStatus).toBe("SUCCEEDED");
    const { run, results } = (
      await app.app.inject({ method: "GET", url: `/v1/api-test-run/${created.test_run_key}` })
    ).json();
    expect(run).toMatchObject({ total: 5, passed: 5, env: "dev1", branch: "master" });
    expect(run.test_run_name).toBe(created.TEST_RUN_NAME);
    const log = (
      await app.app.inject({
        method: "GET",
        url: `/v1/api-test-run/api-log/${created.test_run_key}`,
      })
    ).json();
    expect(log.items.length).toBeGreaterThanOrEqual(5);
    expect(log.items.map((r: { url: string }) => r.url)).toContain(`${app.url}/healthz`);
    expect(results).toHaveLength(5);
  }, 90_000);

  it("a load build fails at once when Locust is not installed, naming what to install", async () => {
    if (findExecutable("locust", process.env.PATH)) return;
    const created = (
      await post("/v1/load/builds", {
        env: "dev1",
        branch: "master",
        testFile: "nextgen/a.py",
        runTime: "20s",
        users: 2,
        spawnRate: 1,
        loadRegion: "us-west-2",
      })
    ).json().build;
    const ended = await waitForEnd(app.app, created.id, 10_000);
    expect(ended).toMatchObject({
      buildStatus: "FAILED",
      statusMessage:
        "locust was not found. Install Locust: pip install locust (then restart Assay).",
    });
  });

  it.skipIf(!existsSync("/usr/bin/chromium") || !existsSync("apps/web/dist/index.html"))(
    "the frontend suite drives Assay in Chromium and reports each page with its screenshot",
    async () => {
      const created = (
        await post("/v1/builds", { nora_site: "dev1.example.com", mode: "by_tags", tag: "@smoke" })
      ).json().build;
      const ended = await waitForEnd(app.app, created.id, 120_000);
      expect(ended.log.text).toContain("Running 3 of 6 frontend tests");
      const { run, results } = (
        await app.app.inject({ method: "GET", url: `/v1/test-runs/${created.test_run_key}` })
      ).json();
      expect(run.total).toBe(3);
      // The run is named as its build (issue 31.6), not after the upload's time.
      expect(run.test_run_name).toBe(created.TEST_RUN_NAME);
      expect(
        results.every((r: { screenshot: string | null }) => r.screenshot?.endsWith(".png")),
      ).toBe(true);
      const shot = await app.app.inject({
        method: "GET",
        url: `/v1/objects/${results[0].screenshot}`,
      });
      expect(shot.headers["content-type"]).toBe("image/png");
    },
    150_000,
  );
});
