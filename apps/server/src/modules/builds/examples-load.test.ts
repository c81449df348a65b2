import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildBuildApp,
  insertBuildUser,
  waitForEnd,
  type BuildApp,
} from "../../../test/build-apps.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";

/**
 * Issue 31.5 and 31.6: a load build on the shipped configuration (examples/load on the local
 * executor) gives its run the build's parameters, name, real start and duration, and its HTML
 * report; the example leaves no temporary folder behind. Locust is not installed in CI, so
 * `locust` in the server's PATH is a stand-in (test/fakes/locust.mjs) that takes Locust's
 * arguments and writes the files a real Locust run wrote.
 */

let database: TestDatabase;
let app: BuildApp;
let home: string;

beforeAll(async () => {
  database = await createTestDatabase();
  home = await mkdtemp(path.join(tmpdir(), "assay-load-home-"));
  const bin = path.join(home, "bin");
  await mkdir(bin);
  await symlink(
    fileURLToPath(new URL("../../../test/fakes/locust.mjs", import.meta.url)),
    path.join(bin, "locust"),
  );
  app = await buildBuildApp(database, {
    user: await insertBuildUser(database),
    builds: "",
    serverEnv: { PATH: `${bin}:${process.env.PATH ?? ""}`, HOME: home },
  });
});
afterAll(async () => {
  await app?.close();
  await database?.drop();
  await rm(home, { recursive: true, force: true });
});

describe("a load build's run", () => {
  it("carries the build's name, parameters, real start and duration, and its report", async () => {
    const before = Date.now();
    const created = await app.app.inject({
      method: "POST",
      url: "/v1/load/builds",
      payload: {
        env: "dev1",
        branch: "master",
        host: "https://load.example.com",
        testFile: "nextgen/a.py",
        runTime: "20s",
        users: 2,
        spawnRate: 1.5,
        loadRegion: "us-west-2",
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const build = created.json().build;
    const ended = await waitForEnd(app.app, build.id, 60_000);
    expect(ended.buildStatus, ended.log.text).toBe("SUCCEEDED");

    const res = await app.app.inject({
      method: "GET",
      url: `/v1/load-test-runs/${build.test_run_key}`,
    });
    expect(res.statusCode).toBe(200);
    const { run } = res.json();
    expect(run).toMatchObject({
      test_run_name: build.TEST_RUN_NAME,
      host: "https://load.example.com",
      test_file: "nextgen/a.py",
      users: 2,
      run_time: "20s",
      spawn_rate: 1.5,
      load_region: "us-west-2",
      env: "dev1",
    });
    expect(run.report_location).toMatch(/^\/v1\/objects\/.+/);
    // The stand-in runs for a second: the run's duration is the test's, measured by the runner.
    expect(run.duration_ms).toBeGreaterThanOrEqual(1_000);
    expect(run.duration_ms).toBeLessThan(60_000);
    expect(Date.parse(run.started_at)).toBeGreaterThanOrEqual(before - 1_000);
    expect(Date.parse(run.started_at)).toBeLessThan(Date.now());
    const report = await app.app.inject({ method: "GET", url: run.report_location });
    expect(report.body).toContain("Locust report");

    // Locust was given the build's users, spawn rate and duration; its folder is gone.
    const args: string[] = JSON.parse(await readFile(path.join(home, "locust-args.json"), "utf8"));
    expect(args).toEqual(
      expect.arrayContaining(["--users=2", "--spawn-rate=1.5", "--run-time=20s"]),
    );
    const csv = args.find((a) => a.startsWith("--csv="))!.slice("--csv=".length);
    expect(path.basename(path.dirname(csv))).toMatch(/^assay-load-example-/);
    expect(existsSync(path.dirname(csv))).toBe(false);
  }, 90_000);
});
