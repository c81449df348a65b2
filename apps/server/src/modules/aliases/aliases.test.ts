import type { Alias, HistoryEntry, RunHistory, TraceabilityMatrix } from "@assay/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertResult, insertRun, insertTest, type TestRef } from "../../../test/factories.js";
import { buildTagApps, type TagApps } from "../../../test/tag-apps.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { canonicalTestIds } from "./aliases.service.js";

// Aliases by hand: the rules that keep the map right (no self alias, no cycle, one alias per
// test, known tests of one family), undo with its journal, and the reads that follow.

let database: TestDatabase;
let apps: TagApps;
let oldTest: TestRef;
let newTest: TestRef;
let third: TestRef;
let loadTest: TestRef;

const create = (testId: unknown, canonicalTestId: unknown, app = apps.user) =>
  app.inject({
    method: "POST",
    url: "/v1/test-aliases",
    payload: { testId, canonicalTestId } as Record<string, unknown>,
  });
const undo = (id: number, app = apps.user) =>
  app.inject({ method: "POST", url: `/v1/test-aliases/${id}/undo` });
const list = async (query = ""): Promise<Alias[]> =>
  (await apps.anonymous.inject({ method: "GET", url: `/v1/test-aliases${query}` })).json();
const aliasRows = async () =>
  Number(
    (await database.db.pool.query<{ n: string }>("SELECT count(*) AS n FROM test_aliases")).rows[0]
      ?.n,
  );

beforeAll(async () => {
  database = await createTestDatabase();
  apps = await buildTagApps(database);
  const earlier = await insertRun(database.db, { test_run_key: "earlier" });
  const later = await insertRun(database.db, { test_run_key: "later" });
  oldTest = await insertTest(database.db, { title: "Sign in", file: "login.spec.ts" });
  newTest = await insertTest(database.db, { title: "Signs in", file: "login.spec.ts" });
  third = await insertTest(database.db, { title: "Signs in with SSO", file: "login.spec.ts" });
  loadTest = await insertTest(database.db, { title: "Peak", family: "load" });
  await insertResult(database.db, earlier, oldTest, {
    status: "failed",
    tags: ["@RMS-9"],
    start_time: new Date("2026-11-01T10:00:00Z"),
  });
  await insertResult(database.db, later, newTest, {
    status: "passed",
    tags: [],
    start_time: new Date("2026-11-02T10:00:00Z"),
  });
});
afterAll(async () => {
  await apps?.close();
  await database?.drop();
});

describe("POST /v1/test-aliases", () => {
  it("refuses, changing nothing: itself, unknown tests, other families, unknown fields", async () => {
    const self = await create(oldTest.id, `TC${oldTest.id}`);
    expect(self.statusCode).toBe(400);
    expect(self.json().error.message).toMatch(/cannot be an alias of itself/);
    const unknown = await create(oldTest.id, 987654321);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toMatch(/No test TC987654321/);
    const family = await create(loadTest.id, newTest.id);
    expect(family.statusCode).toBe(400);
    expect(family.json().error.message).toMatch(/one family/);
    expect((await create("abc", newTest.id)).statusCode).toBe(400);
    const extra = await apps.user.inject({
      method: "POST",
      url: "/v1/test-aliases",
      payload: { testId: oldTest.id, canonicalTestId: newTest.id, force: true },
    });
    expect(extra.statusCode).toBe(400);
    expect(await aliasRows()).toBe(0);
  });

  it("needs a signed-in user", async () => {
    expect((await create(oldTest.id, newTest.id, apps.anonymous)).statusCode).toBe(401);
    expect(await aliasRows()).toBe(0);
  });

  it("makes the alias: the history and canonicalTestIds follow", async () => {
    // The results dialog's history icons (GET /v1/test-runs/{key}/history): before the alias,
    // the new test has only its own result.
    const runHistory = async (): Promise<RunHistory> =>
      (await apps.anonymous.inject({ method: "GET", url: "/v1/test-runs/later/history" })).json();
    expect((await runHistory())[newTest.id]).toHaveLength(1);
    const made = await create(`TC${oldTest.id}`, newTest.id);
    expect(made.statusCode).toBe(201);
    expect(made.json<Alias>()).toMatchObject({
      test: { id: oldTest.id, title: "Sign in" },
      canonical: { id: newTest.id, title: "Signs in" },
      source: "manual",
      createdBy: "qa@example.com",
      undoneAt: null,
    });
    const history: HistoryEntry[] = (
      await apps.anonymous.inject({ method: "GET", url: `/v1/history/${newTest.id}` })
    ).json();
    expect(history.map((entry) => entry.testId)).toEqual([newTest.id, oldTest.id]);
    // The old id's history is the same test's.
    const viaOld: HistoryEntry[] = (
      await apps.anonymous.inject({ method: "GET", url: `/v1/history/${oldTest.id}` })
    ).json();
    expect(viaOld).toHaveLength(2);
    // The icons follow the alias: the old name's failure in the earlier run is the test's.
    expect((await runHistory())[newTest.id]).toMatchObject([
      { status: "passed", test_run_key: "later" },
      { status: "failed", test_run_key: "earlier" },
    ]);
    expect(await canonicalTestIds(database.db, [oldTest.id, newTest.id])).toEqual(
      new Map([[oldTest.id, newTest.id]]),
    );
    expect((await list(`?testId=${newTest.id}`)).map((a) => a.id)).toEqual([made.json().id]);
  });

  it("refuses a second alias of one test and a cycle", async () => {
    const again = await create(oldTest.id, third.id);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toMatch(/already an alias of TC\d+ .*undo that alias first/);
    const cycle = await create(newTest.id, oldTest.id);
    expect(cycle.statusCode).toBe(409);
    expect(cycle.json().error.message).toMatch(/cycle/);
    expect(await aliasRows()).toBe(1);
  });

  it("follows chains: renamed twice, the first name resolves to the last", async () => {
    expect((await create(newTest.id, third.id)).statusCode).toBe(201);
    expect(await canonicalTestIds(database.db, [oldTest.id])).toEqual(
      new Map([[oldTest.id, third.id]]),
    );
    const cycle = await create(third.id, oldTest.id);
    expect(cycle.statusCode).toBe(409);
  });
});

describe("POST /v1/test-aliases/{id}/undo", () => {
  it("undoes, keeps the row with who and when, and refuses a second undo", async () => {
    const [chain] = await list();
    const undone = await undo(chain!.id);
    expect(undone.statusCode).toBe(200);
    expect(undone.json<Alias>()).toMatchObject({ undoneBy: "qa@example.com" });
    expect(undone.json<Alias>().undoneAt).not.toBeNull();
    expect((await undo(chain!.id)).statusCode).toBe(409);
    expect((await undo(999999)).statusCode).toBe(404);
    expect(await list()).toHaveLength(1);
    expect(await list("?undone=true")).toHaveLength(2);
    expect(await canonicalTestIds(database.db, [oldTest.id, newTest.id])).toEqual(
      new Map([[oldTest.id, newTest.id]]),
    );
  });
});

describe("traceability follows aliases", () => {
  it("shows a link to the old name as the test it is now", async () => {
    const imported = await apps.user.inject({
      method: "POST",
      url: "/v1/traceability/rms/import",
      payload: {
        fileName: "rms.csv",
        content: "rms,summary,epic,type\nRMS-7,Sign in,Access,Story",
      },
    });
    expect(imported.statusCode).toBe(200);
    const matrix = async (): Promise<TraceabilityMatrix> =>
      (await apps.anonymous.inject({ method: "GET", url: "/v1/traceability-matrix" })).json();
    const id = (await matrix()).rows.find((row) => row.rmsDetail.rms === "RMS-7")!.rmsDetail.id;
    const linked = await apps.user.inject({
      method: "POST",
      url: `/v1/traceability/rms/${id}/links`,
      payload: { testId: oldTest.id },
    });
    expect(linked.statusCode).toBe(201);
    const row = (await matrix()).rows.find((r) => r.rmsDetail.id === id)!;
    expect(row.testRuns.map((t) => [t.testId, t.name])).toEqual([[newTest.id, "Signs in"]]);
  });
});
