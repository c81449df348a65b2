import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBuildApp, insertBuildUser, type BuildApp } from "../../../../test/build-apps.js";
import { CodeBuildFake } from "../../../bench/codebuild-fake.js";
import { createTestDatabase, type TestDatabase } from "../../../../test/test-database.js";

let database: TestDatabase;
let fake: CodeBuildFake;
let app: BuildApp;

const AWS = { FAKE_AWS_ACCESS_KEY_ID: "AKIAUSEXAMPLE", FAKE_AWS_SECRET_ACCESS_KEY: "us-secret" };
const AWS_CN = { FAKE_CN_ACCESS_KEY_ID: "AKIACNEXAMPLE", FAKE_CN_SECRET_ACCESS_KEY: "cn-secret" };

beforeAll(async () => {
  database = await createTestDatabase();
  fake = new CodeBuildFake();
  await fake.start();
  const us = `{ kind: codebuild, projectName: assay-ui, region: us-west-2, endpoint: "${fake.url}", logsEndpoint: "${fake.url}", credentialsEnvPrefix: FAKE_AWS }`;
  const cn = `{ kind: codebuild, projectName: assay-ui-cn, region: cn-north-1, endpoint: "${fake.url}", credentialsEnvPrefix: FAKE_CN }`;
  app = await buildBuildApp(database, {
    user: await insertBuildUser(database),
    builds: `builds:\n  pollSeconds: 600\n  rateLimit: { builds: 1000, perMinutes: 1 }\n  executors: { frontend: ${us}, china: ${cn}, backend: ${us}, load: ${us} }\n`,
    serverEnv: { PATH: process.env.PATH, ...AWS, ...AWS_CN },
  });
});
afterAll(async () => {
  await app?.close();
  await fake?.stop();
  await database.drop();
});

const get = async (id: number) =>
  (await app.app.inject({ method: "GET", url: `/v1/builds/${id}` })).json();

/** POSTs a build and waits for the start job to hand it to CodeBuild. */
async function started(
  url = "/v1/builds",
  payload: object = { nora_site: "dev1.example.com", branch: "release/2.3" },
) {
  const res = await app.app.inject({ method: "POST", url, payload });
  expect(res.statusCode).toBe(201);
  const id = res.json().build.id as number;
  for (let i = 0; i < 100; i++) {
    const build = await get(id);
    if (build.externalId) return build;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the build was never started");
}

describe("CodeBuild executor (against a JSON 1.1 fake)", () => {
  it("starts with sourceVersion and the contract as environment overrides, then follows every phase", async () => {
    const build = await started();
    const call = fake.calls.find((c) => c.target === "StartBuild")!;
    expect(call.body).toMatchObject({ projectName: "assay-ui", sourceVersion: "release/2.3" });
    const vars = Object.fromEntries(
      (call.body.environmentVariablesOverride as { name: string; value: string }[]).map((v) => [
        v.name,
        v.value,
      ]),
    );
    expect(vars).toMatchObject({
      ASSAY_RUN_KEY: build.test_run_key,
      ASSAY_BUILD_ID: String(build.id),
      NORA_SITE: "dev1.example.com",
      BRANCH: "release/2.3",
    });
    expect(vars.ASSAY_TOKEN).toMatch(/^assay_build_/);
    expect(build).toMatchObject({ executorKind: "codebuild", currentPhase: "SUBMITTED" });
    expect(build.externalUrl).toContain(
      "us-west-2.console.aws.amazon.com/codesuite/codebuild/projects/assay-ui/build/",
    );
    // The token is not in the API's answer.
    expect(JSON.stringify(build)).not.toContain(vars.ASSAY_TOKEN);

    const seen: string[] = [];
    for (let i = 0; i < 12; i++) {
      await app.app.buildRunner.pollCycle(0);
      const now = await get(build.id);
      seen.push(now.currentPhase);
      if (now.buildStatus !== "IN_PROGRESS") break;
    }
    expect(seen).toEqual([
      "QUEUED",
      "PROVISIONING",
      "DOWNLOAD_SOURCE",
      "INSTALL",
      "PRE_BUILD",
      "BUILD",
      "POST_BUILD",
      "UPLOAD_ARTIFACTS",
      "FINALIZING",
      "COMPLETED",
    ]);
    const ended = await get(build.id);
    expect(ended).toMatchObject({ buildStatus: "SUCCEEDED" });
    expect(ended.endTime).not.toBeNull();
  });

  it("shows the log tail from CloudWatch Logs while the build runs, and downloads the whole log", async () => {
    const build = await started();
    const before = await get(build.id);
    // No container yet: CodeBuild has not named the log.
    expect(before.log.text).toContain("has not named its log yet");
    expect(before.logUrl).toBeNull();
    for (let i = 0; i < 6; i++) await app.app.buildRunner.pollCycle(0);
    const running = await get(build.id);
    expect(running).toMatchObject({ currentPhase: "BUILD", logUrl: `/v1/builds/${build.id}/log` });
    const stream = build.externalId.slice(build.externalId.indexOf(":") + 1);
    const reads = fake.calls.filter((c) => c.target === "GetLogEvents");
    expect(reads.at(-1)).toMatchObject({
      accessKey: "AKIAUSEXAMPLE",
      region: "us-west-2",
      body: {
        logGroupName: "/aws/codebuild/assay-ui",
        logStreamName: stream,
        startFromHead: false,
      },
    });
    expect(
      running.log.text
        .trim()
        .split("\n")
        .map((line: string) => line.split(" ").at(-1)),
    ).toEqual(["PROVISIONING", "DOWNLOAD_SOURCE", "INSTALL", "PRE_BUILD", "BUILD"]);
    // More lines than one page of the tail: the tail is the last ones, marked truncated.
    const fakeBuild = fake.builds.get(build.externalId)!;
    for (let i = 0; i < 1_500; i++) fake.writeLog(fakeBuild, `test line ${i}`);
    const long = await get(build.id);
    expect(long.log.truncated).toBe(true);
    expect(long.log.text.trim().split("\n").at(-1)).toBe("test line 1499");
    // The download pages through the whole stream from its head.
    const download = await app.app.inject({ method: "GET", url: `/v1/builds/${build.id}/log` });
    expect(download.statusCode).toBe(200);
    const lines = download.body.trim().split("\n");
    expect(lines).toHaveLength(1_505);
    expect(lines[0]).toMatch(/Entering phase PROVISIONING$/);
    expect(lines.at(-1)).toBe("test line 1499");
  });

  it("says why a log cannot be shown when CloudWatch Logs refuses", async () => {
    const build = await started();
    for (let i = 0; i < 3; i++) await app.app.buildRunner.pollCycle(0);
    fake.throttleNext = 100;
    const refused = await get(build.id);
    fake.throttleNext = 0;
    expect(refused.log.text).toMatch(
      /^The log of this build could not be shown: reading it from CloudWatch Logs failed \(ThrottlingException: Rate exceeded\)\. Its log is at https:\/\//,
    );
  });

  it("rides out throttling: retried calls succeed, and a cycle that still fails changes nothing", async () => {
    const build = await started();
    fake.throttleNext = 2;
    await app.app.buildRunner.pollCycle(0);
    expect((await get(build.id)).currentPhase).toBe("QUEUED");
    fake.throttleNext = 100;
    await app.app.buildRunner.pollCycle(0);
    expect(await get(build.id)).toMatchObject({
      currentPhase: "QUEUED",
      buildStatus: "IN_PROGRESS",
    });
    fake.throttleNext = 0;
    await app.app.buildRunner.pollCycle(0);
    expect((await get(build.id)).currentPhase).toBe("PROVISIONING");
  });

  it("fails a build that disappeared from CodeBuild, saying so", async () => {
    const build = await started();
    fake.builds.delete(build.externalId);
    await app.app.buildRunner.pollCycle(0);
    const ended = await get(build.id);
    expect(ended).toMatchObject({ buildStatus: "FAILED", currentPhase: "COMPLETED" });
    expect(ended.statusMessage).toContain("no longer known to codebuild");
  });

  it("stops a build during provisioning", async () => {
    const build = await started();
    await app.app.buildRunner.pollCycle(0);
    await app.app.buildRunner.pollCycle(0);
    expect((await get(build.id)).currentPhase).toBe("PROVISIONING");
    const res = await app.app.inject({ method: "POST", url: `/v1/builds/${build.id}/stop` });
    expect(res.statusCode).toBe(200);
    expect(res.json().build).toMatchObject({ buildStatus: "STOPPED", currentPhase: "COMPLETED" });
    expect(fake.calls.at(-2)).toMatchObject({
      target: "StopBuild",
      body: { id: build.externalId },
    });
  });

  it("routes CHINA builds to their own project, region and credentials", async () => {
    const build = await started("/v1/china/builds");
    expect(build).toMatchObject({ region: "CHINA", executorKind: "codebuild" });
    expect(build.externalId).toMatch(/^assay-ui-cn:/);
    expect(build.externalUrl).toContain("console.amazonaws.cn");
    const call = fake.calls.filter((c) => c.target === "StartBuild").at(-1)!;
    expect(call).toMatchObject({
      accessKey: "AKIACNEXAMPLE",
      region: "cn-north-1",
      body: { projectName: "assay-ui-cn" },
    });
  });

  it("polls 250 active builds with 3 BatchGetBuilds calls", async () => {
    const user = (await database.db.pool.query("SELECT id FROM users LIMIT 1")).rows[0].id;
    for (let i = 0; i < 250; i++) {
      const id = `assay-ui:batch-${i}`;
      fake.builds.set(id, {
        id,
        projectName: "assay-ui",
        sourceVersion: "master",
        environmentVariables: [],
        phaseIndex: 0,
        buildStatus: "IN_PROGRESS",
        startTime: Date.now() / 1000,
        outcome: "SUCCEEDED",
        events: [],
      });
      await database.db.pool.query(
        `INSERT INTO builds (family, region, executor_kind, external_id, test_run_key, mode, test_run_name, executor,
           source_version, payload, started_by_id, started_by_email, started_by_name, deadline)
         VALUES ('backend', 'US', 'codebuild', $1, $2, 'run_all', 'batch', 'qa', 'master', '{}', $3, 'qa@example.com', 'QA',
           now() + interval '1 hour')`,
        [id, `batch-run-${i}`, user],
      );
    }
    const before = fake.calls.length;
    await app.app.buildRunner.pollCycle(0);
    // Builds of other lists (left active by earlier tests) are polled in calls of their own.
    const batches = fake.calls
      .slice(before)
      .map((c) => c.body.ids as string[])
      .filter((ids) => ids.some((id) => id.startsWith("assay-ui:batch-")));
    expect(batches.map((ids) => ids.length)).toEqual([100, 100, 50]);
    const { rows } = await database.db.pool.query(
      "SELECT count(*) AS n FROM builds WHERE current_phase = 'QUEUED' AND external_id LIKE 'assay-ui:batch-%'",
    );
    expect(Number(rows[0].n)).toBe(250);
  });
});
