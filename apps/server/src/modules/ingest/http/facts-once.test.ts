import type { FastifyInstance } from "fastify";
import { expect, it } from "vitest";
import { useIngestApp } from "../../../../test/ingest-app.js";
import type { TestDatabase } from "../../../../test/test-database.js";
import { upload } from "../../../../test/upload.js";
import { FACT_COLUMNS } from "../../../db/results-sql.js";
import {
  earlierOutcomes,
  eachRunFailure,
  runOutcomes,
  type RunFailureRow,
} from "../../runs/failures.repo.js";

let database: TestDatabase;
let app: FastifyInstance;

useIngestApp((made) => ({ database, app } = made));

/**
 * A JUnit report whose suite states a platform, browser and version for every test case, and
 * one test case that states its own platform (as JUnit properties per test case do).
 */
const REPORT = `<?xml version="1.0"?>
<testsuites><testsuite name="Cart" tests="3">
  <properties>
    <property name="platform" value="linux"/>
    <property name="chrome_version" value="126.0.6478.126"/>
    <property name="version" value="5.2"/>
  </properties>
  <testcase classname="Cart" name="adds an item" file="cart.spec.ts" time="0.1"/>
  <testcase classname="Cart" name="removes an item" file="cart.spec.ts" time="0.1">
    <failure message="expected 0 items">AssertionError: expected 0 items</failure>
  </testcase>
  <testcase classname="Cart" name="pays on windows" file="cart.spec.ts" time="0.1">
    <properties><property name="platform" value="windows"/></properties>
    <failure message="no card">AssertionError: no card</failure>
  </testcase>
</testsuite></testsuites>`;

/** The facts the upload gives its run (the form's fields), which every result takes. */
const RUN_FIELDS = {
  nora_site: "stage.example.com",
  branch: "release/7.4",
  commit: "9f8e7d6",
  executor: "daily robot executor",
};

const LINUX = {
  nora_site: "stage.example.com",
  version: "5.2",
  commit_hash: "9f8e7d6",
  chrome_version: "126.0.6478.126",
  platform: "linux",
  executor: "daily robot executor",
  branch: "release/7.4",
  baseurl: null,
};
const WINDOWS = { ...LINUX, platform: "windows" };

async function uploadRun(): Promise<{ key: string; id: number }> {
  const response = await upload(app, [{ name: "junit.xml", content: REPORT }], RUN_FIELDS);
  expect(response.statusCode, response.body).toBe(201);
  const key = response.json<{ test_run_key: string }>().test_run_key;
  const { rows } = await database.db.pool.query<{ id: number }>(
    "SELECT id::int FROM runs WHERE test_run_key = $1",
    [key],
  );
  return { key, id: rows[0]!.id };
}

/** Rows of run `runId` as stored: their facts_id and their own eight facts. */
async function storedRows(runId: number) {
  const { rows } = await database.db.pool.query(
    `SELECT facts_id, ${FACT_COLUMNS.join(", ")} FROM results WHERE run_id = $1 ORDER BY id`,
    [runId],
  );
  return rows as ({ facts_id: number | null } & Record<string, string | null>)[];
}

const NONE = Object.fromEntries(FACT_COLUMNS.map((column) => [column, null]));

it("stores an upload's facts once per distinct tuple, a test case's own beside the run's", async () => {
  const first = await uploadRun();
  const rows = await storedRows(first.id);
  // Every row holds a tuple's id and none of the eight facts itself.
  expect(rows.map(({ facts_id: _, ...own }) => own)).toEqual([NONE, NONE, NONE]);
  const [linux, , windows] = rows.map((row) => row.facts_id);
  expect(rows[1]!.facts_id).toBe(linux);
  expect(windows).not.toBe(linux);
  const tuples = async () =>
    (
      await database.db.pool.query(
        `SELECT id, ${FACT_COLUMNS.join(", ")} FROM result_facts ORDER BY platform`,
      )
    ).rows;
  expect(await tuples()).toEqual([
    { id: linux, ...LINUX },
    { id: windows, ...WINDOWS },
  ]);

  // Another upload of the same facts refers to the same two tuples: nothing new is stored.
  const second = await uploadRun();
  expect((await storedRows(second.id)).map((row) => row.facts_id)).toEqual([linux, linux, windows]);
  expect(await tuples()).toHaveLength(2);

  // Read back through the run detail, each result has its facts.
  const { results } = (
    await app.inject({ method: "GET", url: `/v1/test-runs/${second.key}` })
  ).json<{ results: Record<string, unknown>[] }>();
  expect(results.map((r) => [r.name, r.platform, r.commit_hash, r.nora_site])).toEqual([
    ["adds an item", "linux", "9f8e7d6", "stage.example.com"],
    ["removes an item", "linux", "9f8e7d6", "stage.example.com"],
    ["pays on windows", "windows", "9f8e7d6", "stage.example.com"],
  ]);
});

/** What a run's reads answer, less what differs from run to run (keys, ids, times). */
async function answers(run: { key: string; id: number }) {
  const get = async (url: string) => (await app.inject({ method: "GET", url })).json();
  const detail = await get(`/v1/test-runs/${run.key}`);
  const view = await get(`/v1/test-runs/${run.key}/view`);
  const ids = (detail.results as { test_run_test_id: string }[]).map((r) => r.test_run_test_id);
  const one = await get(`/v1/test-detail/${run.key}/${ids[2]}`);
  const client = await database.db.pool.connect();
  try {
    const outcomes = await runOutcomes(client, run.id);
    const failures: RunFailureRow[] = [];
    await eachRunFailure(client, run.id, (row) => failures.push(row));
    const testIds = failures.map((f) => f.test_id);
    const earlier = await earlierOutcomes(client, testIds, run.id + 1, 10);
    return {
      results: (detail.results as Record<string, unknown>[]).map((r) => pick(r, RESULT_FIELDS)),
      view: (view.rows as unknown[][]).map((row) =>
        pick(Object.fromEntries(view.columns.map((c: string, i: number) => [c, row[i]])), [
          "name",
          "nora_site",
          "chrome_version",
          "platform",
          "commit_hash",
        ]),
      ),
      one: pick(one as Record<string, unknown>, RESULT_FIELDS),
      outcomes: outcomes
        // Each context's outcomes as a set: their order follows the rows' (test_ids', left out).
        .map(({ test_ids: _, outcomes: o, ...context }) => ({ ...context, outcomes: sorted(o) }))
        .sort(byPlatform),
      failures: failures
        .map(({ platform, branch, nora_site }) => ({ platform, branch, nora_site }))
        .sort(byPlatform),
      earlier: earlier
        .filter((e) => e.run_id === run.id)
        .map(({ run_id: _, test_id: __, ...e }) => e)
        .sort(byPlatform),
    };
  } finally {
    client.release();
  }
}

const RESULT_FIELDS = ["name", "status", ...FACT_COLUMNS];
const sorted = (text: string) => [...text].sort().join("");
// Rows read with no order (a run's failures, contexts): in one to compare.
const byPlatform = (a: { platform: string | null }, b: { platform: string | null }) =>
  String(a.platform).localeCompare(String(b.platform));
const pick = (row: Record<string, unknown>, fields: readonly string[]) =>
  Object.fromEntries(fields.filter((f) => f in row).map((f) => [f, row[f]]));

it("answers the same for a run written before migration 0222 (facts in each row) and one after", async () => {
  const before = await uploadRun();
  const after = await uploadRun();
  // As migration 0222 leaves a run written before it: its facts in each row, no tuple.
  await database.db.pool.query(
    `UPDATE results r SET ${FACT_COLUMNS.map((c) => `${c} = f.${c}`).join(", ")}, facts_id = NULL
     FROM result_facts f WHERE f.id = r.facts_id AND r.run_id = $1`,
    [before.id],
  );
  const old = await storedRows(before.id);
  expect(old.map((row) => [row.facts_id, row.platform])).toEqual([
    [null, "linux"],
    [null, "linux"],
    [null, "windows"],
  ]);

  const expected = await answers(after);
  expect(expected.results).toHaveLength(3);
  expect(expected.view).toContainEqual({
    name: "pays on windows",
    nora_site: "stage.example.com",
    chrome_version: "126.0.6478.126",
    platform: "windows",
    commit_hash: "9f8e7d6",
  });
  // A frontend result shows no base URL.
  expect(expected.one).toEqual({
    name: "pays on windows",
    status: "failed",
    ...WINDOWS,
    baseurl: undefined,
  });
  // Flaky tests' and triage's contexts: platform, branch and site of each failure and outcome.
  expect(expected.outcomes).toEqual([
    { platform: "linux", branch: "release/7.4", site: "stage.example.com", outcomes: "fp" },
    { platform: "windows", branch: "release/7.4", site: "stage.example.com", outcomes: "f" },
  ]);
  expect(expected.failures).toEqual([
    { platform: "linux", branch: "release/7.4", nora_site: "stage.example.com" },
    { platform: "windows", branch: "release/7.4", nora_site: "stage.example.com" },
  ]);
  expect(await answers(before)).toEqual(expected);
});
