import {
  BackendRunDetailSchema,
  BackendRunViewSchema,
  FrontendRunDetailSchema,
  FrontendRunViewSchema,
  RunHistorySchema,
  TagListSchema,
  VIEW_ERROR_CHARS,
  matchesFailureFilter,
  summarizeFailures,
  viewRowObject,
  type BackendResult,
  type DisplayStatus,
  type FailureFilter,
  type FrontendResult,
  type FrontendViewResult,
  type RunHistory,
} from "@assay/core";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../../../../test/build-test-app.js";
import {
  insertAttachment,
  insertResult,
  insertRun,
  insertTest,
  tagTest,
  type ResultRef,
  type RunRef,
  type TestRef,
} from "../../../../test/factories.js";
import { createTestDatabase, type TestDatabase } from "../../../../test/test-database.js";
import { Rng } from "../../../demo/prng.js";

/*
 * The run view against the whole run: over a generated run (random statuses, pending messages,
 * retries, report and dynamic tags, '@unstable', earlier runs for the history), every filter
 * combination, paged in random page sizes, lists exactly the results that filtering the spec's
 * run detail gives (the rules the web app applied to it before), with the same fields, counts,
 * Failed Summary, tag options and history.
 */

let database: TestDatabase;
let app: FastifyInstance;
const STATUSES: DisplayStatus[] = ["passed", "failed", "skipped", "unstable"];
const REPORT_TAGS = ["@login", "@Patient", "@diary", "@smoke", "Slow", "@TC77", "@econsent"];
const DYNAMIC_TAGS = ["@nightly", "@flow"];
const MESSAGES = [
  "AssertionError: expected 1 to be 2 (NXL-12)",
  "Pending reason == waiting for NXL-9",
  `Long failure: ${"x".repeat(VIEW_ERROR_CHARS + 50)} NXL-4`,
  null,
];

async function generateRun(family: "frontend" | "backend", key: string, tests: TestRef[]) {
  const db = database.db;
  const rng = Rng.for("view", key);
  // Earlier runs first: the history the failure filters read.
  for (let day = 3; day >= 1; day--) {
    const earlier = await insertRun(db, { test_run_key: `${key}-d${day}`, family });
    for (const test of tests) {
      if (rng.chance(0.2)) continue;
      await insertResult(db, earlier, test, {
        status: rng.chance(0.5) ? "failed" : "passed",
        start_time: `2025-06-0${5 - day}T10:00:00Z`,
      });
    }
  }
  const run = await insertRun(db, { test_run_key: key, family });
  const other = await insertRun(db, { test_run_key: `${key}-other`, family });
  for (const [i, test] of tests.entries()) {
    const status = rng.pick(["passed", "failed", "failed", "skipped"] as const);
    const fields = {
      status,
      name: `${test.title} case ${i}`,
      title: rng.chance(0.8) ? `Title ${i} ${rng.pick(["alpha", "beta", "Gamma"])}` : null,
      scenario: rng.chance(0.5) ? `Scenario ${rng.int(1, 5)}` : null,
      tags: REPORT_TAGS.filter(() => rng.chance(0.3)),
      error_message: status === "passed" ? null : rng.pick(MESSAGES),
      start_time: "2025-06-05T10:00:00Z",
      duration_ms: rng.int(1, 5000),
    };
    let final;
    if (rng.chance(0.1)) {
      // A retry: the first attempt does not count, nor does its screenshot.
      const first = await insertResult(db, run, test, {
        ...fields,
        status: "failed",
        is_final: false,
      });
      if (family === "frontend") await insertAttachment(db, first);
      final = await insertResult(db, run, test, {
        ...fields,
        attempt: 1,
        flaky: status === "passed",
      });
    } else final = await insertResult(db, run, test, fields);
    if (family === "frontend") await attachTo(rng, final, i === 5 ? other : undefined);
  }
}

/**
 * Screenshots of a frontend result (the card shows the last image): none, one or two images, and
 * other files after them. Once, a result of another run whose id falls among the run's, with a
 * screenshot of its own that no card of this run shows.
 */
/** Each final frontend result's last image attachment, as inserted: the card's screenshot. */
const lastImage = new Map<number, string>();

async function attachTo(rng: Rng, result: ResultRef, other: RunRef | undefined) {
  const db = database.db;
  if (other) {
    const test = await insertTest(db, { title: "Elsewhere" });
    await insertAttachment(db, await insertResult(db, other, test, { status: "failed" }));
  }
  const images = rng.pick([0, 0, 0, 1, 2]);
  for (let k = 0; k < images; k++) {
    lastImage.set(result.id, (await insertAttachment(db, result)).object_key);
  }
  if (rng.chance(0.2)) {
    await insertAttachment(db, result, { content_type: "text/plain", name: "console.txt" });
  }
}

beforeAll(async () => {
  database = await createTestDatabase();
  app = (await buildTestApp(database.db)).app;
  const db = database.db;
  const frontendTests = await Promise.all(
    Array.from({ length: 120 }, (_, i) => insertTest(db, { title: `Test ${i}` })),
  );
  const backendTests = await Promise.all(
    Array.from({ length: 80 }, (_, i) => insertTest(db, { title: `Api ${i}`, family: "backend" })),
  );
  const rng = Rng.for("view-tags");
  for (const test of frontendTests) {
    if (rng.chance(0.1)) await tagTest(db, "@unstable", test);
    for (const tag of DYNAMIC_TAGS) if (rng.chance(0.25)) await tagTest(db, tag, test);
  }
  await generateRun("frontend", "fv", frontendTests);
  await generateRun("backend", "bv", backendTests);
}, 120_000);

afterAll(async () => {
  await app?.close();
  await database?.drop();
});

async function get<T>(url: string, schema: { parse: (value: unknown) => T }): Promise<T> {
  const response = await app.inject({ method: "GET", url });
  expect(response.statusCode, response.body).toBe(200);
  return schema.parse(response.json());
}

interface Combo {
  hide: DisplayStatus[];
  tags: string[];
  failure: FailureFilter | null;
  q: string;
}

/** Filter combinations: every Hide set with and without tags, failures and searches. */
function combos(family: "frontend" | "backend"): Combo[] {
  const rng = Rng.for("combos", family);
  const list: Combo[] = [];
  for (let mask = 0; mask < 16; mask++) {
    const hide = STATUSES.filter((_, bit) => mask & (1 << bit));
    list.push({ hide, tags: [], failure: null, q: "" });
    const tags = [...REPORT_TAGS, ...DYNAMIC_TAGS].filter(() => rng.chance(0.25));
    const failures: (FailureFilter | null)[] =
      family === "frontend" ? [null, "new_failure", "failed_three_days"] : [null];
    list.push({
      hide,
      tags: tags.map((tag) => (rng.chance(0.5) ? tag.toUpperCase() : tag)),
      failure: rng.pick(failures),
      q: rng.pick(["", "gamma", "TC", "case 1", "scenario 3", "@SMOKE"]),
    });
  }
  return list;
}

/** The old rule, over the whole run detail: what the dialog listed for these filters. */
function oracle<R extends FrontendResult | BackendResult>(
  results: readonly R[],
  combo: Combo,
  tagTests: Map<string, Set<number>>,
  history: RunHistory,
): R[] {
  const wanted = new Set(combo.tags.map((tag) => tag.trim().toLowerCase()));
  const q = combo.q.toLowerCase();
  return results.filter((result) => {
    if (!result.is_final || combo.hide.includes(result.derived_status)) return false;
    const tags = result.tags.map((tag) => tag.trim().toLowerCase());
    if (
      wanted.size > 0 &&
      !tags.some((tag) => wanted.has(tag)) &&
      ![...wanted].some((tag) => tagTests.get(tag)?.has(result.test_id))
    )
      return false;
    if (combo.failure) {
      const entries = history[result.test_id];
      if (!entries || !matchesFailureFilter(combo.failure, entries)) return false;
    }
    const text = [`TC${result.test_id}`, result.name, result.title, result.scenario, ...tags];
    return q === "" || text.join("\n").toLowerCase().includes(q);
  });
}

function queryOf(combo: Combo, offset: number, limit: number, summary: boolean) {
  const params = new URLSearchParams({ offset: String(offset), limit: String(limit) });
  if (combo.hide.length) params.set("hide", combo.hide.join(","));
  if (combo.tags.length) params.set("tags", combo.tags.join(","));
  if (combo.failure) params.set("failure", combo.failure);
  if (combo.q) params.set("q", combo.q);
  if (!summary) params.set("summary", "false");
  return params.toString();
}

async function tagTestsOf() {
  const tags = await get("/v1/dtag", TagListSchema);
  return new Map(
    Object.entries(tags.byTag).map(([name, e]) => [name.toLowerCase(), new Set(e.test_ids)]),
  );
}

describe("GET /v1/test-runs/{key}/view", () => {
  it("lists, for every filter combination and page size, what filtering the whole run does", async () => {
    const detail = await get("/v1/test-runs/fv", FrontendRunDetailSchema);
    const history = await get("/v1/test-runs/fv/history", RunHistorySchema);
    const tagTests = await tagTestsOf();
    const rng = Rng.for("pages");
    const keptBy = { failure: 0, tags: 0, search: 0 };
    for (const combo of combos("frontend")) {
      const expected = oracle(detail.results, combo, tagTests, history);
      // The generated run must exercise each filter: some combinations keep results.
      if (combo.failure) keptBy.failure += expected.length;
      if (combo.tags.length) keptBy.tags += expected.length;
      if (combo.q) keptBy.search += expected.length;
      const limit = rng.int(7, 40);
      const seen: FrontendViewResult[] = [];
      for (let offset = 0; offset === 0 || offset < expected.length; offset += limit) {
        const page = await get(
          `/v1/test-runs/fv/view?${queryOf(combo, offset, limit, offset === 0)}`,
          FrontendRunViewSchema,
        );
        expect(page.shown).toBe(expected.length);
        expect(page.summary === null).toBe(offset > 0);
        const rows = page.rows.map((row) => viewRowObject<FrontendViewResult>(page.columns, row));
        // The page's history is the whole run's for those tests.
        for (const row of rows) expect(page.history[row.test_id]).toEqual(history[row.test_id]);
        seen.push(...rows);
      }
      expect(
        seen.map((row) => row.id),
        JSON.stringify(combo),
      ).toEqual(expected.map((r) => r.id));
      for (const [i, row] of seen.entries()) {
        const full = expected[i]!;
        const failed = full.derived_status === "failed" || full.derived_status === "unstable";
        expect(row).toEqual({
          ...pick(full, ["id", "test_run_test_id", "test_id", "name", "title", "scenario"]),
          ...pick(full, ["derived_status", "flaky", "duration_ms", "tags", "tickets"]),
          ...pick(full, ["pending_reason", "nora_site", "chrome_version", "platform"]),
          ...pick(full, ["commit_hash", "screenshot"]),
          error_message: failed ? (full.error_message?.slice(0, VIEW_ERROR_CHARS) ?? null) : null,
          error_cut: failed && (full.error_message?.length ?? 0) > VIEW_ERROR_CHARS,
        });
      }
    }
    expect(Math.min(keptBy.failure, keptBy.tags, keptBy.search)).toBeGreaterThan(0);
  }, 120_000);

  it("counts, summarizes and offers tags as the dialog did from the whole run", async () => {
    const detail = await get("/v1/test-runs/fv", FrontendRunDetailSchema);
    const catalog = (await app.inject({ url: "/v1/catalog" })).json<{ majorTags: string[] }>();
    const tagTests = await tagTestsOf();
    const finals = detail.results.filter((result) => result.is_final);
    const view = await get("/v1/test-runs/fv/view?limit=1", FrontendRunViewSchema);
    const counts = { total: finals.length, passed: 0, failed: 0, skipped: 0, unstable: 0 };
    for (const result of finals) counts[result.derived_status]++;
    expect(counts.unstable).toBeGreaterThan(0);
    expect(view.summary?.counts).toEqual(counts);
    const failed = finals.filter((result) => result.derived_status === "failed");
    expect(view.summary?.failed_groups).toEqual(summarizeFailures(failed, catalog.majorTags));
    const options = new Set(tagTests.keys());
    for (const r of finals) for (const tag of r.tags) options.add(tag.trim().toLowerCase());
    options.delete("@tc77"); // A tag that only carries a test id is no option.
    expect(view.summary?.tag_options).toEqual([...options].sort());
    expect(view.run).toEqual(detail.run);
    expect(view.total).toBe(finals.length);
  });

  it("shows each card's last screenshot: not an earlier attempt's, another run's or a file's", async () => {
    const detail = await get("/v1/test-runs/fv", FrontendRunDetailSchema);
    const all = await get("/v1/test-runs/fv/view?limit=1000", FrontendRunViewSchema);
    const shots = new Map(
      all.rows
        .map((row) => viewRowObject<FrontendViewResult>(all.columns, row))
        .map((row) => [row.id, row.screenshot]),
    );
    const finals = detail.results.filter((result) => result.is_final);
    expect(lastImage.size).toBeGreaterThan(5);
    for (const result of finals) {
      const want = lastImage.get(result.id) ?? null;
      expect(shots.get(result.id), result.name).toBe(want);
      expect(result.screenshot, result.name).toBe(want);
    }
    const other = await get("/v1/test-runs/fv-other", FrontendRunDetailSchema);
    const elsewhere = other.results[0]!;
    expect(elsewhere.id).toBeGreaterThan(finals[0]!.id);
    expect(elsewhere.id).toBeLessThan(finals.at(-1)!.id);
    expect([...shots.values()]).not.toContain(elsewhere.screenshot);
  });

  it("locates a result in the filtered list, and says what is wrong with bad filters", async () => {
    const all = await get("/v1/test-runs/fv/view?limit=1000", FrontendRunViewSchema);
    const target = all.rows[37]!;
    const found = await get(
      `/v1/test-runs/fv/view?limit=1&locate=${target[1]}`,
      FrontendRunViewSchema,
    );
    expect(found.located).toBe(37);
    const bad = await app.inject({ url: "/v1/test-runs/fv/view?hide=broken" });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain("hide");
    const tooMany = await app.inject({ url: "/v1/test-runs/fv/view?limit=5000" });
    expect(tooMany.statusCode).toBe(400);
    const backendFailure = await app.inject({
      url: "/v1/api-test-run/bv/view?failure=new_failure",
    });
    expect(backendFailure.statusCode).toBe(400);
    expect(backendFailure.json<{ error: { message: string } }>().error.message).toContain(
      "frontend runs",
    );
    const missing = await app.inject({ url: "/v1/test-runs/nope/view" });
    expect(missing.statusCode).toBe(404);
  });
});

describe("GET /v1/api-test-run/{key}/view", () => {
  it("lists, for every filter combination and page size, what filtering the whole run does", async () => {
    const detail = await get("/v1/api-test-run/bv", BackendRunDetailSchema);
    const tagTests = await tagTestsOf();
    const rng = Rng.for("backend-pages");
    for (const combo of combos("backend")) {
      const expected = oracle(detail.results, combo, tagTests, {});
      const limit = rng.int(5, 30);
      const ids: number[] = [];
      for (let offset = 0; offset === 0 || offset < expected.length; offset += limit) {
        const page = await get(
          `/v1/api-test-run/bv/view?${queryOf(combo, offset, limit, offset === 0)}`,
          BackendRunViewSchema,
        );
        expect(page.shown).toBe(expected.length);
        for (const row of page.rows) {
          const object = viewRowObject<Record<string, unknown>>(page.columns, row);
          const full = expected[ids.length]!;
          expect(object).toEqual(
            pick(full, page.columns as (keyof BackendResult)[]) as Record<string, unknown>,
          );
          ids.push(full.id);
        }
      }
      expect(ids).toEqual(expected.map((result) => result.id));
    }
    const view = await get("/v1/api-test-run/bv/view", BackendRunViewSchema);
    expect(view.run).toEqual(detail.run);
  }, 120_000);
});

function pick<T, K extends keyof T>(object: T, keys: readonly K[]): Pick<T, K> {
  const picked = {} as Pick<T, K>;
  for (const key of keys) picked[key] = object[key];
  return picked;
}
