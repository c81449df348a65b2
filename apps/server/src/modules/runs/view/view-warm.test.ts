import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertResult, insertRun, insertTest } from "../../../../test/factories.js";
import { createTestDatabase, type TestDatabase } from "../../../../test/test-database.js";
import { runDetailVersion } from "../run-detail-cache.js";
import { requireRun, unstableTestIds } from "../runs.service.js";
import { RunViewCache, type KeptView } from "./view-cache.js";
import { warmRunView, type RunViewContext } from "./view.service.js";

// A stored run's view is built when its upload is acknowledged, not at its first open (issue 36).

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

function context(cache = new RunViewCache()): RunViewContext {
  return {
    db: database.db,
    cache,
    ticketPattern: "NXL-\\d+",
    majorTags: [],
    testIdPattern: undefined,
  };
}

async function keptView(ctx: RunViewContext, key: string): Promise<KeptView | undefined> {
  const run = await requireRun(database.db, "frontend", key);
  const version = runDetailVersion(
    run.row_version,
    await unstableTestIds(database.db),
    ctx.ticketPattern,
  );
  return ctx.cache.get("frontend", key, version);
}

describe("warmRunView", () => {
  it("keeps the current view of a stored run, without a read asking for it", async () => {
    const run = await insertRun(database.db, { test_run_key: "warm-1" });
    const test = await insertTest(database.db);
    await insertResult(database.db, run, test, { status: "failed", error_message: "NXL-3" });
    const ctx = context();
    expect(await keptView(ctx, "warm-1")).toBeUndefined();
    warmRunView(ctx, { family: "frontend", key: "warm-1" });
    await expect.poll(() => keptView(ctx, "warm-1")).toBeDefined();
    expect((await keptView(ctx, "warm-1"))!.results).toHaveLength(1);
  });

  it("builds nothing for a load run, and leaves a missing run to its first read", async () => {
    const ctx = context();
    warmRunView(ctx, { family: "load", key: "warm-1" });
    warmRunView(ctx, { family: "frontend", key: "no-such-run" });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await keptView(ctx, "warm-1")).toBeUndefined();
  });

  it("is built once when a read asks while it is being built", async () => {
    const cache = new RunViewCache();
    let builds = 0;
    const viewOf = (version: string) =>
      ({ version, results: { length: 0, bytes: 1 } }) as unknown as KeptView;
    const view = viewOf("v1");
    const build = async (made = view) => {
      builds++;
      await new Promise((resolve) => setTimeout(resolve, 50));
      return made;
    };
    const [a, b] = await Promise.all([
      cache.once("frontend", "k", "v1", () => build()),
      cache.once("frontend", "k", "v1", () => build()),
    ]);
    expect(a).toBe(view);
    expect(b).toBe(view);
    expect(builds).toBe(1);
    expect(cache.get("frontend", "k", "v1")).toBe(view);
    await cache.once("frontend", "k", "v2", () => build(viewOf("v2")));
    expect(builds).toBe(2);
    expect(cache.get("frontend", "k", "v1")).toBeUndefined();
  });
});
