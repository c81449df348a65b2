import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildBuildApp,
  insertBuildUser,
  RUNNER_ARGV,
  waitForEnd,
} from "../../../test/build-apps.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import type { ExecutorState } from "./executors/executor.js";
import { LocalExecutor } from "./executors/local.js";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

const local = `{ kind: local, command: ${JSON.stringify(RUNNER_ARGV)} }`;
const config = (rate: string) =>
  `builds:\n  rateLimit: ${rate}\n  executors: { frontend: ${local}, china: ${local}, backend: ${local}, load: ${local} }\n`;

describe("per-user rate limit", () => {
  it("answers 429 with Retry-After past the limit, and records nothing more", async () => {
    const app = await buildBuildApp(database, {
      user: await insertBuildUser(database, "limited@example.com"),
      builds: config("{ builds: 2, perMinutes: 5 }"),
    });
    try {
      const post = () =>
        app.app.inject({
          method: "POST",
          url: "/v1/api/builds",
          payload: { env: "dev1", branch: "master" },
        });
      const accepted = [await post(), await post()];
      expect(accepted.map((res) => res.statusCode)).toEqual([201, 201]);
      const refused = await post();
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error.code).toBe("too_many_builds");
      const retryAfter = Number(refused.headers["retry-after"]);
      expect(retryAfter).toBeGreaterThan(250);
      expect(retryAfter).toBeLessThanOrEqual(300);
      const { rows } = await database.db.pool.query(
        "SELECT count(*) AS n FROM builds WHERE started_by_email = 'limited@example.com'",
      );
      expect(Number(rows[0].n)).toBe(2);
      // Both builds run: closing the app before they end let a runner write its log into the
      // objects folder after the close removed it (a folder left in /tmp by each CI pass).
      for (const res of accepted) {
        expect((await waitForEnd(app.app, res.json().build.id)).buildStatus).not.toBe(
          "IN_PROGRESS",
        );
      }
    } finally {
      await app.close();
    }
  });
});

describe("server restart", () => {
  it("starts a local build again when the server that ran it stopped", async () => {
    const user = await insertBuildUser(database, "restart@example.com");
    const dataDir = await mkdtemp(path.join(tmpdir(), "assay-builds-restart-"));
    const first = await buildBuildApp(database, {
      user,
      builds: config("{ builds: 50, perMinutes: 1 }"),
      dataDir,
    });
    const created = (
      await first.app.inject({
        method: "POST",
        url: "/v1/builds",
        payload: { nora_site: "dev1.example.com", mode: "by_tags", tag: "@sleep" },
      })
    ).json().build;
    for (let i = 0; i < 100; i++) {
      const build = (
        await first.app.inject({ method: "GET", url: `/v1/builds/${created.id}` })
      ).json();
      if (build.log.text.includes("CHILD ")) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await first.close();
    const { rows } = await database.db.pool.query("SELECT build_status FROM builds WHERE id = $1", [
      created.id,
    ]);
    expect(rows[0].build_status).toBe("IN_PROGRESS");

    const second = await buildBuildApp(database, {
      user,
      builds: config("{ builds: 50, perMinutes: 1 }"),
      dataDir,
    });
    try {
      let build;
      for (let i = 0; i < 100; i++) {
        build = (
          await second.app.inject({ method: "GET", url: `/v1/builds/${created.id}` })
        ).json();
        if (build.log.text.split("RUNNER ").length === 3) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(build.statusMessage).toMatch(
        /^Taken over by server .*: server .* stopped renewing its lease; started again as try 2\.$/,
      );
      // The log holds both runs, each after its marker line: the first one's and the restarted one's.
      expect(build.log.text.split("RUNNER ")).toHaveLength(3);
      expect(build.log.text).toMatch(
        /===== Try 1 of build \d+[^\n]*=====\nRUNNER [^]*===== Try 2 of build/,
      );
      await second.app.inject({ method: "POST", url: `/v1/builds/${created.id}/stop` });
      expect((await waitForEnd(second.app, created.id)).buildStatus).toBe("STOPPED");
    } finally {
      await second.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe("local time limit", () => {
  it("ends a build that runs past its limit as TIMED_OUT", async () => {
    const logDir = await mkdtemp(path.join(tmpdir(), "assay-builds-limit-"));
    const ended = new Promise<ExecutorState>((resolve) => {
      const executor = new LocalExecutor(
        { kind: "local", command: RUNNER_ARGV, requires: [], passEnv: [] },
        {
          installDir: process.cwd(),
          logDir,
          serverEnv: process.env,
          timeLimitMs: 500,
          onExit: (_id, state) => resolve(state),
        },
      );
      void executor.start({
        buildId: 1,
        runKey: "r",
        sourceVersion: "master",
        env: { TEST_TAG: "@sleep" },
        secrets: {},
      });
    });
    expect(await ended).toMatchObject({ phase: "COMPLETED", status: "TIMED_OUT" });
    await rm(logDir, { recursive: true, force: true });
  });
});
