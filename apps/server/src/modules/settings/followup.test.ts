import { DEFAULT_RERUN_EXECUTOR } from "@assay/core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  buildBuildApp,
  insertBuildUser,
  waitForEnd,
  type BuildApp,
} from "../../../test/build-apps.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { startReceiver } from "../../../test/webhook-receiver.js";

/*
 * After a schedule's build ends, on the real app: its builds run the test runner on the local
 * executor (TC9101 passes, TC9102 fails; a rerun passes), the automatic rerun goes through the
 * builds module's rerun, and the summary reaches a real HTTP receiver through pg-boss jobs.
 */

// Two builds, a rerun and deliveries with a retry 5 s later: 10-25 s, more on a loaded machine.
vi.setConfig({ testTimeout: 120_000 });

let database: TestDatabase;
let app: BuildApp;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await buildBuildApp(database, {
    user: await insertBuildUser(database),
    env: { ASSAY_WEBHOOK_ALLOW_PRIVATE: "true" },
  });
});
afterAll(async () => {
  await app?.close();
  await database.drop();
});

const TEMPLATE = {
  family: "frontend",
  region: "US",
  payload: { mode: "by_tags", tag: "@smoke", nora_site: "dev1.example.com" },
};

const inject = (method: "GET" | "POST", url: string, payload?: object) =>
  app.app.inject({ method, url, payload });

async function schedule(body: object): Promise<number> {
  const res = await inject("POST", "/v1/setting", {
    cron: "0 3 * * *",
    template: TEMPLATE,
    ...body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
}

async function slotOf(id: number) {
  const settings = (await inject("GET", "/v1/setting")).json();
  return settings.find((s: { id: number }) => s.id === id).recentSlots[0];
}

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe("a scheduled run that ends with failures", () => {
  it("launches one rerun of its failures as the Daily Run Scheduler, then sends the summary", async () => {
    const receiver = await startReceiver();
    try {
      const id = await schedule({
        name: "nightly with rerun",
        rerunFailures: true,
        webhookUrl: `${receiver.url}/hook`,
        webhookFormat: "json",
      });
      const launched = (await inject("POST", `/v1/setting/${id}/run`)).json();
      expect(launched.outcome).toBe("launched");
      const first = await waitForEnd(app.app, Number(launched.buildId));
      expect(first).toMatchObject({ buildStatus: "SUCCEEDED", EXECUTOR: "daily robot executor" });

      const slot = await until(
        "the rerun",
        () => slotOf(id),
        (s) => s.rerunBuildId !== null,
      );
      const rerun = await waitForEnd(app.app, Number(slot.rerunBuildId));
      expect(rerun).toMatchObject({
        test_run_key: launched.testRunKey,
        rerunOf: "failed",
        TEST_TAG: "TC9102",
        EXECUTOR: DEFAULT_RERUN_EXECUTOR,
        startedBy: { email: "scheduler", name: "Daily Run Scheduler" },
      });

      const [request] = await receiver.waitFor(1);
      expect(request?.path).toBe("/hook");
      expect(request?.body).toMatchObject({
        event: "schedule.run.finished",
        schedule: { id, name: "nightly with rerun" },
        build: { id: String(rerun.id), status: "SUCCEEDED", isRerun: true },
        run: {
          key: launched.testRunKey,
          total: 2,
          passed: 2,
          failed: 0,
          flaky: 1,
          url: `${app.url}/test_runs/${encodeURIComponent(launched.testRunKey)}`,
        },
        newFailures: { count: 0, items: [] },
      });
      const done = await until(
        "the delivery",
        () => slotOf(id),
        (s) => s.notifyState !== "pending",
      );
      expect(done).toMatchObject({
        notifyState: "delivered",
        notifyMessage: null,
        buildId: launched.buildId,
        buildStatus: "SUCCEEDED",
      });
      // One rerun and one summary: the rerun's end does not rerun again.
      const builds = (await inject("GET", `/v1/builds?test_run_key=${launched.testRunKey}`)).json();
      expect(builds.total).toBe(2);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it("without rerunFailures sends the summary with its new failure, retrying a failed delivery", async () => {
    // The receiver is down for the first attempt (HTTP 502), then answers.
    const receiver = await startReceiver((n) => (n === 1 ? 502 : 200));
    try {
      const id = await schedule({
        name: "nightly to slack",
        webhookUrl: `${receiver.url}/slack`,
        webhookFormat: "slack",
      });
      const launched = (await inject("POST", `/v1/setting/${id}/run`)).json();
      await waitForEnd(app.app, Number(launched.buildId));
      const [failed, retried] = await receiver.waitFor(2);
      expect(retried?.body).toEqual(failed?.body);
      const text = (retried?.body as { text: string }).text;
      expect(text).toContain("2 tests: 1 passed, 1 failed, 0 skipped");
      expect(text).toContain("New failures (1):\n• TC9102 checks out");
      const slot = await until(
        "the delivery",
        () => slotOf(id),
        (s) => s.notifyState === "delivered",
      );
      expect(slot.rerunBuildId).toBeNull();
      const builds = (await inject("GET", `/v1/builds?test_run_key=${launched.testRunKey}`)).json();
      expect(builds.total).toBe(1);
    } finally {
      await receiver.close();
    }
  });
});
