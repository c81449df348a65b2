import type { Alias, AliasSuggestion, HistoryEntry } from "@assay/core";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../../../test/build-test-app.js";
import { QA_USER } from "../../../test/tag-apps.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { TEST_INGEST_TOKEN, upload } from "../../../test/upload.js";
import { renameSearchQueue, searchRenames, type RenameSearch } from "./aliases.jobs.js";
import { nameOf } from "../../db/results-sql.js";

// Aliases found at ingest: a stable key in the report makes the alias at once; a test gone from
// a run with a new one of the same file and steps becomes a suggestion, confirmed in one call.
// The apps run no job handlers: the test runs the queued rename searches itself, so it can see
// that the upload left them to the job.

interface Case {
  name: string;
  file?: string;
  properties?: Record<string, string>;
  failed?: boolean;
}

const junit = (cases: readonly Case[]) => {
  const body = cases
    .map((c) => {
      const props = Object.entries(c.properties ?? {})
        .map(([name, value]) => `<property name="${name}" value="${value}"/>`)
        .join("");
      const failure = c.failed ? `<failure message="boom">at x</failure>` : "";
      return `<testcase name="${c.name}" classname="Api" file="${c.file ?? "api/users.spec.ts"}" time="0.1">${
        props ? `<properties>${props}</properties>` : ""
      }${failure}</testcase>`;
    })
    .join("");
  return Buffer.from(
    `<?xml version="1.0"?><testsuites><testsuite name="Api" tests="${cases.length}" timestamp="${new Date().toISOString().slice(0, 19)}">${body}</testsuite></testsuites>`,
  );
};

let database: TestDatabase;
let apps: { user: FastifyInstance; anonymous: FastifyInstance; withToken: FastifyInstance };
let n = 0;
const searched = new Set<string>();

/** The rename searches uploads queued and no test has run yet. */
async function queuedSearches(): Promise<{ id: string; data: RenameSearch }[]> {
  const { rows } = await database.db.pool.query<{ id: string; data: RenameSearch }>(
    "SELECT id::text, data FROM pgboss.job WHERE name = $1 ORDER BY created_on",
    [renameSearchQueue.name],
  );
  return rows.filter((row) => !searched.has(row.id));
}

/** Runs the queued searches as the job would; returns how many suggestions they added. */
async function runSearches(): Promise<number> {
  let added = 0;
  for (const job of await queuedSearches()) {
    searched.add(job.id);
    added += await searchRenames(database.db, job.data);
  }
  return added;
}

/** Uploads one run of the job (backend, ci, main) holding `cases`. */
async function run(cases: readonly Case[]): Promise<string> {
  const key = `aliases-run-${++n}`;
  const res = await upload(apps.withToken, [{ name: "report.xml", content: junit(cases) }], {
    family: "backend",
    executor: "ci",
    branch: "main",
    run_key: key,
  });
  expect(res.statusCode).toBe(201);
  return key;
}

async function testIdOf(name: string): Promise<number> {
  const { rows } = await database.db.pool.query<{ id: string }>(
    `SELECT DISTINCT test_id AS id FROM results r WHERE ${nameOf("r")} = $1`,
    [name],
  );
  expect(rows).toHaveLength(1);
  return Number(rows[0]!.id);
}

const get = async <T>(url: string): Promise<T> =>
  (await apps.anonymous.inject({ method: "GET", url })).json<T>();

beforeAll(async () => {
  database = await createTestDatabase();
  const build = async (options: Parameters<typeof buildTestApp>[1]) =>
    (await buildTestApp(database.db, { ...options, startWorkers: false })).app;
  apps = {
    user: await build({ resolvePrincipal: async () => QA_USER }),
    anonymous: await build({ resolvePrincipal: async () => undefined }),
    withToken: await build({ env: { ASSAY_INGEST_TOKEN: TEST_INGEST_TOKEN } }),
  };
});
afterAll(async () => {
  await Promise.all(Object.values(apps ?? {}).map((app) => app.close()));
  await database?.drop();
});

describe("aliases from a stable key", () => {
  it("follows a renamed test that keeps its JUnit test_id property", async () => {
    await run([{ name: "lists users", properties: { test_id: "USR-1" }, failed: true }]);
    await run([{ name: "lists all users", properties: { test_id: "USR-1" }, failed: true }]);
    const [oldId, newId] = [await testIdOf("lists users"), await testIdOf("lists all users")];
    expect(oldId).not.toBe(newId);

    const aliases = await get<Alias[]>("/v1/test-aliases");
    expect(aliases).toMatchObject([
      {
        test: { id: oldId, title: "lists users" },
        canonical: { id: newId, title: "lists all users" },
        source: "stable_id",
        stableKey: "test_id:USR-1",
        createdBy: "ingest",
        undoneAt: null,
      },
    ]);
    // The new test's history holds the old name's result, with the id it was stored under.
    const history = await get<HistoryEntry[]>(`/v1/history/${newId}`);
    expect(history.map((entry) => entry.testId).sort()).toEqual([oldId, newId].sort());
    // Top Fails counts the two failures once, under the new test.
    const fails = await get<{ id: number; fail_count: number }[]>("/v1/fails");
    expect(fails.find((f) => f.id === newId)?.fail_count).toBe(2);
    expect(fails.some((f) => f.id === oldId)).toBe(false);
  });

  it("makes no alias from a key every test of a suite carries", async () => {
    const before = (await get<Alias[]>("/v1/test-aliases")).length;
    await run([
      { name: "shared a", properties: { id: "SUITE" } },
      { name: "shared b", properties: { id: "SUITE" } },
    ]);
    await run([{ name: "shared c", properties: { id: "SUITE" } }]);
    expect(await get<Alias[]>("/v1/test-aliases")).toHaveLength(before);
  });
});

describe("suggested renames", () => {
  const steps = { step: "open the orders page", step1: "filter by status" };

  it("suggests a gone test and a new one with its file and steps, confirmed in one call", async () => {
    await run([
      { name: "filters orders", file: "api/orders.spec.ts", properties: steps },
      { name: "counts orders", file: "api/orders.spec.ts", properties: { step: "count" } },
    ]);
    await run([
      { name: "filters orders by status", file: "api/orders.spec.ts", properties: steps },
      { name: "counts orders", file: "api/orders.spec.ts", properties: { step: "count" } },
    ]);
    const [oldId, newId] = [
      await testIdOf("filters orders"),
      await testIdOf("filters orders by status"),
    ];
    // The upload committed without searching: its search waits in the job queue.
    expect(await get<AliasSuggestion[]>("/v1/test-aliases/suggestions")).toEqual([]);
    const queued = await queuedSearches();
    expect(queued.at(-1)?.data).toMatchObject({ ids: [newId] });
    expect(await runSearches()).toBe(1);
    const open = await get<AliasSuggestion[]>("/v1/test-aliases/suggestions");
    expect(open).toMatchObject([
      { test: { id: oldId }, canonical: { id: newId }, decision: null, runKey: `aliases-run-${n}` },
    ]);

    const confirmed = await apps.user.inject({
      method: "POST",
      url: `/v1/test-aliases/suggestions/${open[0]!.id}/confirm`,
    });
    expect(confirmed.statusCode).toBe(201);
    expect(confirmed.json<Alias>()).toMatchObject({ source: "suggestion", test: { id: oldId } });
    expect(await get<AliasSuggestion[]>("/v1/test-aliases/suggestions")).toEqual([]);
    const history = await get<HistoryEntry[]>(`/v1/history/${newId}`);
    expect(history.map((entry) => entry.testId)).toContain(oldId);

    // Undo: the old test's results are its own again and the suggestion is open again.
    const undone = await apps.user.inject({
      method: "POST",
      url: `/v1/test-aliases/${confirmed.json<Alias>().id}/undo`,
    });
    expect(undone.statusCode).toBe(200);
    expect(undone.json<Alias>().undoneBy).toBe("qa@example.com");
    expect((await get<HistoryEntry[]>(`/v1/history/${newId}`)).map((e) => e.testId)).toEqual([
      newId,
    ]);
    expect(await get<AliasSuggestion[]>("/v1/test-aliases/suggestions")).toHaveLength(1);
  });

  it("suggests nothing when two gone tests match one new test", async () => {
    const before = (await get<AliasSuggestion[]>("/v1/test-aliases/suggestions?all=true")).length;
    await run([
      { name: "twin one", file: "api/twins.spec.ts", properties: { step: "same" } },
      { name: "twin two", file: "api/twins.spec.ts", properties: { step: "same" } },
    ]);
    await run([{ name: "twin three", file: "api/twins.spec.ts", properties: { step: "same" } }]);
    expect(await runSearches()).toBe(0);
    expect(await get<AliasSuggestion[]>("/v1/test-aliases/suggestions?all=true")).toHaveLength(
      before,
    );
  });

  it("pairs the one-to-one renames of a file and leaves its ambiguous ones", async () => {
    const file = "api/mixed.spec.ts";
    await run([
      { name: "opens cart", file, properties: { step: "cart" } },
      { name: "pays by card", file, properties: { step: "pay" } },
      { name: "pays by voucher", file, properties: { step: "pay" } },
      { name: "ships", file, properties: { step: "ship" } },
    ]);
    await runSearches();
    await run([
      { name: "opens the cart", file, properties: { step: "cart" } },
      { name: "pays", file, properties: { step: "pay" } },
      { name: "ships to an address", file, properties: { step: "ship" } },
      { name: "ships abroad", file, properties: { step: "ship" } },
    ]);
    expect(await runSearches()).toBe(1);
    const open = await get<AliasSuggestion[]>("/v1/test-aliases/suggestions");
    expect(open.filter((s) => s.canonical.title.startsWith("opens"))).toMatchObject([
      { test: { id: await testIdOf("opens cart") }, canonical: { title: "opens the cart" } },
    ]);
  });
});

describe("the rename search after the upload", () => {
  it("is queued only by an upload that registered tests", async () => {
    const cases = [{ name: "known one", file: "api/known.spec.ts" }];
    await run(cases);
    await runSearches();
    await run(cases);
    expect(await queuedSearches()).toEqual([]);
  });

  it("adds a pair once when run twice at once, by its ids or by reading the run", async () => {
    await run([{ name: "exports csv", file: "api/export.spec.ts", properties: { step: "csv" } }]);
    await runSearches();
    await run([{ name: "exports a csv", file: "api/export.spec.ts", properties: { step: "csv" } }]);
    const [job] = await queuedSearches();
    expect(job?.data.ids).toEqual([await testIdOf("exports a csv")]);
    searched.add(job!.id);
    // Without the ids (an upload past those ingest keeps) the run is read: the same pair.
    const byRun = { ...job!.data, ids: null };
    const added = await Promise.all([
      searchRenames(database.db, byRun),
      searchRenames(database.db, byRun),
    ]);
    expect(added.reduce((a, b) => a + b)).toBe(1);
    expect(await searchRenames(database.db, job!.data)).toBe(0);
    const open = await get<AliasSuggestion[]>("/v1/test-aliases/suggestions");
    expect(open.filter((s) => s.canonical.title === "exports a csv")).toMatchObject([
      { test: { id: await testIdOf("exports csv") } },
    ]);
  });

  it("runs in a server that runs job handlers", async () => {
    // The searches the other tests ran leave the queue: the worker has this one only.
    await runSearches();
    await database.db.pool.query("DELETE FROM pgboss.job WHERE name = $1", [
      renameSearchQueue.name,
    ]);
    const worker = (await buildTestApp(database.db, {})).app;
    try {
      await run([{ name: "prints pdf", file: "api/print.spec.ts", properties: { step: "pdf" } }]);
      await run([{ name: "prints a pdf", file: "api/print.spec.ts", properties: { step: "pdf" } }]);
      const suggested = async () =>
        (await get<AliasSuggestion[]>("/v1/test-aliases/suggestions")).some(
          (s) => s.canonical.title === "prints a pdf",
        );
      await expect.poll(suggested, { timeout: 15_000, interval: 250 }).toBe(true);
    } finally {
      await worker.close();
    }
  });
});
