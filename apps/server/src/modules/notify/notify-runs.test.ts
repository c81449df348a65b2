import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  runWallClockMs,
  type IngestResponse,
  type NotifyRule,
  type NotifyRuleList,
} from "@assay/core";
import { buildTestApp } from "../../../test/build-test-app.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { until } from "../../../test/until.js";
import { fixturePart, upload } from "../../../test/upload.js";
import { startReceiver } from "../../../test/webhook-receiver.js";
import type { Principal } from "../auth/access.js";

/**
 * When a run is told: a sharded run (several uploads into one run key) once, after its last
 * shard, with the whole run's counts; a run opened before its shards when it is finished; and
 * "on new failures" by triage's groups (first seen in this run, or back as a regression).
 */

const ADMIN: Principal = {
  kind: "user",
  id: 1,
  email: "lead@example.com",
  name: "Lead",
  admin: true,
};
const SETTLE_SECONDS = 2;

let database: TestDatabase;
let app: FastifyInstance;
let hook: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  database = await createTestDatabase();
  hook = await startReceiver();
  const env = {
    ASSAY_WEBHOOK_ALLOW_PRIVATE: "true",
    ASSAY_PUBLIC_URL: "https://assay.example.com",
    ASSAY_NOTIFY_SETTLE_SECONDS: String(SETTLE_SECONDS),
  };
  app = (await buildTestApp(database.db, { env, resolvePrincipal: async () => ADMIN })).app;
  for (const [name, when, filter] of [
    ["Shards", "always", "Sharded"],
    ["New only", "new_failures", "Job A"],
  ] as const) {
    const response = await app.inject({
      method: "POST",
      url: "/v1/notify/rules",
      payload: {
        name,
        channel: "webhook",
        when,
        filters: { name: filter },
        secret: `${hook.url}/${name.replace(" ", "-")}`,
      },
    });
    expect(response.statusCode, response.body).toBe(201);
  }
}, 120_000);

afterAll(async () => {
  await app?.close();
  await hook?.close();
  await database?.drop();
});

interface Sent {
  outcome: string;
  run: { key: string };
  counts: { total: number; passed: number; failed: number };
  durationMs: number;
  failures: { title: string; tests: string[] }[];
  failuresTitle: string;
}

const sentFor = (key: string) =>
  hook.received.filter((r) => (r.body as Sent).run.key === key).map((r) => r.body as Sent);

async function deliveries(rule: string) {
  const list = (
    await app.inject({ method: "GET", url: "/v1/notify/rules" })
  ).json<NotifyRuleList>();
  return list.rules.find((r: NotifyRule) => r.name === rule)!.deliveries;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function shard(file: [string, string], key: string, name: string): Promise<IngestResponse> {
  const response = await upload(app, [fixturePart(...file)], {
    family: "frontend",
    run_key: key,
    test_run_name: name,
  });
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response.json<IngestResponse>();
}

describe("a sharded run", () => {
  it("is sent once, after its last shard, with the whole run's counts", async () => {
    const first = await shard(["junit", "jest-junit.xml"], "sharded-1", "Sharded UI");
    // The second shard comes before the first one's wait is over: the wait starts again.
    await pause(1000);
    expect(sentFor("sharded-1")).toHaveLength(0);
    const second = await shard(["junit", "mocha-junit.xml"], "sharded-1", "Sharded UI");
    expect(second.counts.total).toBeGreaterThan(first.counts.total);
    await pause(1500);
    expect(sentFor("sharded-1")).toHaveLength(0);
    const [message] = await until("the run's one message", () => {
      const sent = sentFor("sharded-1");
      return sent.length > 0 ? sent : undefined;
    });
    expect(message!.counts).toMatchObject({
      total: second.counts.total,
      passed: second.counts.passed,
      failed: second.counts.failed,
    });
    // The shards date their suites a week back but not their tests' ends: the run lasted
    // seconds on the screens (core's wall clock), not the week until it was uploaded.
    const { rows } = await database.db.pool.query<{ started_at: Date; finished_at: Date }>(
      "SELECT started_at, finished_at FROM runs WHERE test_run_key = 'sharded-1'",
    );
    const shown = runWallClockMs({
      started_at: rows[0]!.started_at.toISOString(),
      finished_at: rows[0]!.finished_at.toISOString(),
    });
    expect(Date.now() - rows[0]!.started_at.getTime()).toBeGreaterThan(86_400_000);
    expect(message!.durationMs).toBe(shown);
    expect(message!.durationMs).toBeLessThan(60_000);
    await pause(SETTLE_SECONDS * 1000 + 1000);
    expect(sentFor("sharded-1")).toHaveLength(1);
  }, 60_000);

  it("opened before its shards, is sent when finished, at once", async () => {
    const open = await app.inject({
      method: "POST",
      url: "/v1/ingest/runs",
      payload: { family: "frontend", run_key: "sharded-2", test_run_name: "Sharded API" },
    });
    expect(open.statusCode, open.body).toBe(201);
    await shard(["junit", "jest-junit.xml"], "sharded-2", "Sharded API");
    const second = await shard(["junit", "wdio-junit.xml"], "sharded-2", "Sharded API");
    // An open run is not told, however long its shards take.
    await pause(SETTLE_SECONDS * 1000 + 1500);
    expect(sentFor("sharded-2")).toHaveLength(0);
    expect((await deliveries("Shards")).map((d) => d.runKey)).not.toContain("sharded-2");
    const finish = await app.inject({ method: "POST", url: "/v1/ingest/runs/sharded-2/finish" });
    expect(finish.statusCode, finish.body).toBe(200);
    const finishedAt = Date.now();
    const message = await until("the finished run's message", () => sentFor("sharded-2")[0]);
    expect(Date.now() - finishedAt).toBeLessThan(SETTLE_SECONDS * 1000);
    expect(message.counts).toMatchObject({
      total: second.counts.total,
      failed: second.counts.failed,
    });
  }, 60_000);
});

describe("on new failures", () => {
  it("sends a run's new failure groups, and skips a run whose groups were all seen", async () => {
    await shard(["junit", "node-test-junit.xml"], "job-a-1", "Job A nightly");
    const message = await until("the new failures", () => sentFor("job-a-1")[0]);
    expect(message.failuresTitle).toBe("New failures");
    expect(message.failures.length).toBeGreaterThan(0);
    for (const group of message.failures) {
      expect(group.title).toMatch(/ \(new\)$/);
      expect(group.tests.length).toBeGreaterThan(0);
    }
    // The same failures the next night: nothing new, so nothing sent, and the reason is shown.
    await shard(["junit", "node-test-junit.xml"], "job-a-2", "Job A nightly");
    const skipped = await until("the second run's outcome", async () =>
      (await deliveries("New only")).find((d) => d.runKey === "job-a-2" && d.state !== "pending"),
    );
    expect(skipped).toMatchObject({ state: "skipped" });
    expect(skipped.message).toMatch(/^no new failures/);
    expect(sentFor("job-a-2")).toHaveLength(0);
  }, 60_000);
});
