import type { RunDiff } from "@assay/core";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../../../test/build-test-app.js";
import { insertResult, insertRun, insertTest, type RunRef } from "../../../test/factories.js";
import { insertRunningBuild } from "../../../test/running-build.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";

let database: TestDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  database = await createTestDatabase();
  app = (
    await buildTestApp(database.db, {
      env: { ASSAY_DIFF_SLOWER_PERCENT: "50", ASSAY_DIFF_SLOWER_MS: "200" },
    })
  ).app;
});
afterAll(async () => {
  await app.close();
  await database.drop();
});

const get = (url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: "GET", url, headers });

type Outcome = "passed" | "failed" | "skipped" | "pending" | "flaky";

/** Two runs of one job: each test's outcome (and duration) in a, then in b; absent: not run. */
async function twoRuns(
  tests: Record<string, [Outcome | null, Outcome | null, number?, number?]>,
  fields: { family?: "frontend" | "backend" } = {},
): Promise<[RunRef, RunRef]> {
  const family = fields.family ?? "frontend";
  const common = { family, executor: "daily", branch: "master", nora_site: "site-a" } as const;
  const a = await insertRun(database.db, { ...common, created_at: new Date("2026-11-01") });
  const b = await insertRun(database.db, { ...common, created_at: new Date("2026-11-02") });
  for (const [title, [inA, inB, msA = 1000, msB = 1000]] of Object.entries(tests)) {
    const test = await insertTest(database.db, { title, family });
    for (const [run, outcome, ms] of [
      [a, inA, msA],
      [b, inB, msB],
    ] as const) {
      if (outcome === null) continue;
      await insertResult(database.db, run, test, {
        status: outcome === "pending" ? "failed" : outcome === "flaky" ? "passed" : outcome,
        flaky: outcome === "flaky",
        error_message: outcome === "pending" ? "Pending reason == NXL-1" : null,
        duration_ms: ms,
      });
    }
  }
  return [a, b];
}

const names = (list: { name: string }[]) => list.map((t) => t.name);

describe("GET /v1/runs/{a}/diff/{b}", () => {
  it("sorts each test into its sections", async () => {
    const [a, b] = await twoRuns({
      broke: ["passed", "failed"],
      "broke-from-pending": ["pending", "failed"],
      "new-and-failing": [null, "failed"],
      repaired: ["failed", "passed"],
      "still-broken": ["failed", "failed"],
      "now-pending": ["failed", "pending"],
      "flaky-now": ["passed", "flaky"],
      "flaky-both": ["flaky", "flaky"],
      "new-passing": [null, "passed"],
      gone: ["passed", null],
      "much-slower": ["passed", "passed", 1000, 1600],
      "slower-by-share-only": ["passed", "passed", 100, 250],
      "slower-by-time-only": ["passed", "passed", 10_000, 10_300],
      "slower-but-failing": ["passed", "failed", 1000, 5000],
    });
    const res = await get(`/v1/runs/${a.test_run_key}/diff/${b.test_run_key}`);
    expect(res.statusCode).toBe(200);
    const diff = res.json<RunDiff>();
    expect(diff.a.key).toBe(a.test_run_key);
    expect(diff.b).toMatchObject({ key: b.test_run_key, family: "frontend" });
    expect(diff.slowerThan).toEqual({ percent: 50, ms: 200 });
    expect(names(diff.newFailures)).toEqual([
      "broke",
      "broke-from-pending",
      "new-and-failing",
      "slower-but-failing",
    ]);
    expect(names(diff.fixed)).toEqual(["repaired"]);
    expect(names(diff.stillFailing)).toEqual(["still-broken"]);
    expect(names(diff.newlyFlaky)).toEqual(["flaky-now"]);
    expect(names(diff.added)).toEqual(["new-and-failing", "new-passing"]);
    expect(names(diff.removed)).toEqual(["gone"]);
    expect(diff.slower).toEqual([
      {
        testId: expect.any(Number),
        name: "much-slower",
        testRunTestId: expect.any(String),
        durationA: 1000,
        durationB: 1600,
      },
    ]);
    // Links go to the later run's result.
    expect(diff.fixed[0]!.testRunTestId).toMatch(/^t-/);
  });

  it("compares backend runs as well, the earlier run's name kept for a removed test", async () => {
    const [a, b] = await twoRuns({ "api gone": ["failed", null] }, { family: "backend" });
    const diff = (await get(`/v1/runs/${a.test_run_key}/diff/${b.test_run_key}`)).json<RunDiff>();
    expect(names(diff.removed)).toEqual(["api gone"]);
    expect(diff.fixed).toEqual([]);
  });

  it("refuses runs of different families in words", async () => {
    const ui = await insertRun(database.db, { test_run_key: "fam-ui", family: "frontend" });
    const api = await insertRun(database.db, { test_run_key: "fam-api", family: "backend" });
    const res = await get(`/v1/runs/${ui.test_run_key}/diff/${api.test_run_key}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({
      code: "cannot_compare",
      message:
        "Run fam-ui is a frontend (UI) run and run fam-api is an API (backend) run: a diff " +
        "compares two runs of one family. Pick two runs from the same list.",
    });
  });

  it("refuses load runs, a run with itself and unknown keys", async () => {
    await insertRun(database.db, { test_run_key: "load-1", family: "load" });
    await insertRun(database.db, { test_run_key: "load-2", family: "load" });
    const load = await get("/v1/runs/load-1/diff/load-2");
    expect(load.statusCode).toBe(400);
    expect(load.json().error.message).toMatch(/^Load runs have endpoints, not tests/);
    const same = await get("/v1/runs/load-1/diff/load-1");
    expect(same.json().error.message).toBe(
      "Both keys are load-1: a diff compares two different runs.",
    );
    const missing = await get("/v1/runs/load-1/diff/nope");
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.message).toBe(
      "No run with key nope: check the key in the run list.",
    );
  });

  it("lets a build's token compare its own run only", async () => {
    const [a, b] = await twoRuns({ one: ["passed", "passed"] });
    const other = await insertRun(database.db, { family: "frontend" });
    const user = await database.db.kysely
      .insertInto("users")
      .values({ email: "diff@example.com", name: "Diff Tester" })
      .returning("id")
      .executeTakeFirstOrThrow();
    const token = await insertRunningBuild(database, b.test_run_key, user.id);
    const auth = { authorization: `Bearer ${token}` };
    expect((await get(`/v1/runs/${a.test_run_key}/diff/${b.test_run_key}`, auth)).statusCode).toBe(
      200,
    );
    const refused = await get(`/v1/runs/${a.test_run_key}/diff/${other.test_run_key}`, auth);
    expect(refused.statusCode).toBe(403);
    expect((await get(`/v1/runs/${b.test_run_key}/previous`, auth)).statusCode).toBe(200);
    expect((await get(`/v1/runs/${a.test_run_key}/previous`, auth)).statusCode).toBe(403);
  });
});

describe("GET /v1/runs/{key}/previous", () => {
  it("answers the latest earlier run of the same job, not another site's or person's", async () => {
    const job = { family: "frontend", executor: "robot", branch: "main", nora_site: "s1" } as const;
    await insertRun(database.db, {
      ...job,
      test_run_key: "p-old",
      created_at: new Date("2026-10-01"),
    });
    await insertRun(database.db, {
      ...job,
      test_run_key: "p-prev",
      created_at: new Date("2026-10-02"),
    });
    await insertRun(database.db, {
      ...job,
      nora_site: "s2",
      test_run_key: "p-other-site",
      created_at: new Date("2026-10-03"),
    });
    await insertRun(database.db, {
      ...job,
      executor: "someone@example.com",
      test_run_key: "p-person",
      created_at: new Date("2026-10-03"),
    });
    await insertRun(database.db, {
      ...job,
      test_run_key: "p-now",
      created_at: new Date("2026-10-04"),
    });
    const res = await get("/v1/runs/p-now/previous");
    expect(res.json().previous).toMatchObject({ key: "p-prev", family: "frontend" });
    expect((await get("/v1/runs/p-old/previous")).json()).toEqual({ previous: null });
  });
});
