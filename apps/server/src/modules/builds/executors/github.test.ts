import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBuildApp, insertBuildUser } from "../../../../test/build-apps.js";
import { GitHubFake } from "../../../../test/fakes/github-fake.js";
import { createTestDatabase } from "../../../../test/test-database.js";
import { BuildRefused, MISSING } from "./executor.js";
import { GitHubExecutor } from "./github.js";

let fake: GitHubFake;
let executor: GitHubExecutor;

beforeAll(async () => {
  fake = new GitHubFake();
  await fake.start();
  executor = new GitHubExecutor(
    {
      kind: "github",
      owner: "acme",
      repo: "ui-tests",
      workflow: "assay.yml",
      apiUrl: fake.url,
      tokenEnv: "GH_TOKEN",
    },
    { GH_TOKEN: "ghp_test" },
    async () => undefined,
  );
});
afterAll(async () => {
  await fake.stop();
});

const request = (buildId: number, sourceVersion = "master") => ({
  buildId,
  runKey: `frontend-run-${buildId}`,
  sourceVersion,
  env: { ASSAY_RUN_KEY: `frontend-run-${buildId}`, TEST_TAG: "@smoke; rm -rf /" },
  secrets: { ASSAY_TOKEN: "assay_build_secret" },
});

describe("GitHub Actions executor (against a REST fake)", () => {
  it("dispatches the workflow with the contract in inputs and takes the run from return_run_details", async () => {
    const launched = await executor.start(request(1, "feature/x"));
    const run = fake.runs.get(Number(launched.externalId))!;
    expect(run.ref).toBe("feature/x");
    expect(JSON.parse(run.inputs.assay_env!)).toEqual({
      ASSAY_RUN_KEY: "frontend-run-1",
      TEST_TAG: "@smoke; rm -rf /",
    });
    expect(JSON.parse(run.inputs.assay_secrets!)).toEqual({ ASSAY_TOKEN: "assay_build_secret" });
    expect(launched).toMatchObject({
      externalUrl: `https://github.com/acme/ui-tests/actions/runs/${run.id}`,
      state: { phase: "QUEUED", status: "IN_PROGRESS" },
    });
  });

  it("finds the run by its unique run name when the dispatch answers 204", async () => {
    fake.returnRunDetails = false;
    const launched = await executor.start(request(2));
    fake.returnRunDetails = true;
    expect(fake.runs.get(Number(launched.externalId))!.display_title).toBe("assay build 2");
    expect(fake.requests.at(-1)!.path).toContain(
      "/actions/workflows/assay.yml/runs?event=workflow_dispatch",
    );
  });

  it("maps queued, in_progress and each conclusion onto CodeBuild's phases and statuses", async () => {
    const { externalId } = await executor.start(request(3));
    const run = fake.runs.get(Number(externalId))!;
    expect((await executor.poll([externalId])).get(externalId)).toEqual({
      phase: "QUEUED",
      status: "IN_PROGRESS",
    });
    run.status = "in_progress";
    expect((await executor.poll([externalId])).get(externalId)).toEqual({
      phase: "BUILD",
      status: "IN_PROGRESS",
      log: { kind: "github", run: externalId },
    });
    const outcomes: [string, string][] = [
      ["success", "SUCCEEDED"],
      ["failure", "FAILED"],
      ["cancelled", "STOPPED"],
      ["timed_out", "TIMED_OUT"],
      ["startup_failure", "FAULT"],
    ];
    for (const [conclusion, status] of outcomes) {
      Object.assign(run, { status: "completed", conclusion });
      expect((await executor.poll([externalId])).get(externalId)).toMatchObject({
        phase: "COMPLETED",
        status,
      });
    }
  });

  it("reports a deleted run as missing, and throws (to retry later) when rate limited", async () => {
    const { externalId } = await executor.start(request(4));
    fake.rateLimitNext = 1;
    await expect(executor.poll([externalId])).rejects.toThrow(/HTTP 403/);
    fake.runs.delete(Number(externalId));
    expect((await executor.poll([externalId])).get(externalId)).toBe(MISSING);
  });

  it("cancels a queued run; cancelling a finished one is not an error", async () => {
    const { externalId } = await executor.start(request(5));
    await executor.stop(externalId);
    expect((await executor.poll([externalId])).get(externalId)).toMatchObject({
      status: "STOPPED",
    });
    await executor.stop(externalId);
  });

  it("refuses a build GitHub will not run, and one without a token, with a message", async () => {
    await expect(executor.start(request(6, "no-such-branch"))).rejects.toThrow(BuildRefused);
    const noToken = new GitHubExecutor(
      {
        kind: "github",
        owner: "acme",
        repo: "ui-tests",
        workflow: "assay.yml",
        apiUrl: fake.url,
        tokenEnv: "GH_TOKEN",
      },
      {},
    );
    await expect(noToken.start(request(7))).rejects.toThrow("set GH_TOKEN for the server");
  });

  it("reads the run's log job by job: finished jobs' logs through GitHub's redirect, running ones named", async () => {
    const launched = await executor.start(request(40));
    const run = fake.runs.get(Number(launched.externalId))!;
    expect((await executor.poll([launched.externalId])).get(launched.externalId)).toMatchObject({
      phase: "QUEUED",
      log: undefined,
    });
    run.status = "in_progress";
    run.jobs = [
      {
        id: 71,
        name: "install",
        status: "completed",
        conclusion: "success",
        log: "npm ci\nadded 420 packages\n",
      },
      { id: 72, name: "suite", status: "in_progress", conclusion: null, log: "" },
    ];
    const state = (await executor.poll([launched.externalId])).get(launched.externalId);
    expect(state).toMatchObject({ phase: "BUILD", log: { kind: "github", run: String(run.id) } });
    const log = { kind: "github" as const, run: String(run.id) };
    const tail = await executor.logs.tail(log, 64 * 1024);
    expect(tail.text).toBe(
      "==== install ====\nnpm ci\nadded 420 packages\n==== suite ====\n(in_progress: GitHub gives a job's log once it ends)\n",
    );
    // The signed URL gets no token.
    expect(fake.blobAuthorizations).toEqual([undefined]);
    run.jobs[1] = { ...run.jobs[1]!, status: "completed", log: "2 passing\n" };
    const short = await executor.logs.tail(log, 20);
    expect(short).toMatchObject({ text: "uite ====\n2 passing\n", truncated: true });
    let whole = "";
    for await (const part of executor.logs.all(log)) whole += part;
    expect(whole).toBe(
      "==== install ====\nnpm ci\nadded 420 packages\n==== suite ====\n2 passing\n",
    );
  });
});

describe("GitHub Actions as a list's executor (assay.config.yaml)", () => {
  it("dispatches a backend build from POST /v1/api/builds and follows its run to the end", async () => {
    const database = await createTestDatabase();
    const github = `{ kind: github, owner: acme, repo: ui-tests, workflow: assay.yml, apiUrl: "${fake.url}", tokenEnv: GH_TOKEN }`;
    const local = `{ kind: local, command: ["/bin/true"] }`;
    const app = await buildBuildApp(database, {
      user: await insertBuildUser(database),
      builds: `builds:\n  pollSeconds: 600\n  executors: { frontend: ${local}, china: ${local}, backend: ${github}, load: ${local} }\n`,
      serverEnv: { PATH: process.env.PATH, GH_TOKEN: "ghp_test" },
    });
    try {
      const res = await app.app.inject({
        method: "POST",
        url: "/v1/api/builds",
        payload: { env: "dev1", branch: "main" },
      });
      const id = res.json().build.id as number;
      let build = res.json().build;
      for (let i = 0; i < 100 && !build.externalId; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        build = (await app.app.inject({ method: "GET", url: `/v1/builds/${id}` })).json();
      }
      expect(build).toMatchObject({ executorKind: "github", currentPhase: "QUEUED" });
      const run = fake.runs.get(Number(build.externalId))!;
      expect(run.ref).toBe("main");
      expect(JSON.parse(run.inputs.assay_env!)).toMatchObject({
        ASSAY_BUILD_ID: String(id),
        ENV: "dev1",
      });
      run.status = "in_progress";
      await app.app.buildRunner.pollCycle(0);
      expect(
        (await app.app.inject({ method: "GET", url: `/v1/builds/${id}` })).json().currentPhase,
      ).toBe("BUILD");
      run.jobs = [
        {
          id: 91,
          name: "api-tests",
          status: "completed",
          conclusion: "failure",
          log: "1 failing\n",
        },
      ];
      Object.assign(run, { status: "completed", conclusion: "failure" });
      await app.app.buildRunner.pollCycle(0);
      const ended = (await app.app.inject({ method: "GET", url: `/v1/builds/${id}` })).json();
      expect(ended).toMatchObject({
        buildStatus: "FAILED",
        currentPhase: "COMPLETED",
        statusMessage: "GitHub Actions concluded failure.",
      });
      expect(ended).toMatchObject({
        externalUrl: `https://github.com/acme/ui-tests/actions/runs/${run.id}`,
      });
      expect(ended.log.text).toBe("==== api-tests ====\n1 failing\n");
      const download = await app.app.inject({ method: "GET", url: `/v1/builds/${id}/log` });
      expect(download.body).toBe("==== api-tests ====\n1 failing\n");
    } finally {
      await app.close();
      await database.drop();
    }
  }, 60_000);
});
