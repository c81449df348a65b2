import type { FastifyInstance } from "fastify";
import { describe, expect, it } from "vitest";
import { useIngestApp } from "../../../test/ingest-app.js";
import type { TestDatabase } from "../../../test/test-database.js";
import { fixturePart, upload } from "../../../test/upload.js";
import { nameOf } from "../../db/results-sql.js";

/*
 * Every test a report lists is stored and counted (issue #18, items 14-16): tests of one name are
 * distinct unless the format says they are attempts, a nameless test case is named rather than
 * refusing the report, and totals that disagree with the tests listed are a warning that the
 * answer gives and the run keeps.
 */

let database: TestDatabase;
let app: FastifyInstance;

useIngestApp((made) => ({ database, app } = made));

async function storedTests(key: string) {
  const { rows } = await database.db.pool.query<{ name: string; test_id: number }>(
    `SELECT ${nameOf("r")} AS name, r.test_id::int FROM results r JOIN runs ON runs.id = r.run_id
     WHERE runs.test_run_key = $1 AND r.is_final ORDER BY r.id`,
    [key],
  );
  return rows;
}

/** A Surefire-style report whose parameterized test repeats its method name per parameter. */
const PARAMETERIZED = Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="com.example.PriceTest" tests="4" failures="1" errors="0" skipped="1">
<testcase name="rounds" classname="com.example.PriceTest" time="0.01"/>
<testcase name="rounds" classname="com.example.PriceTest" time="0.01"><failure message="expected 3"/></testcase>
<testcase name="rounds" classname="com.example.PriceTest" time="0.01"><skipped/></testcase>
<testcase name="formats" classname="com.example.PriceTest" time="0.01"/>
</testsuite>`);

describe("tests that share a name", () => {
  it("stores both tests of one full title in a Mocha file (stats: 5 tests), each once", async () => {
    const res = await upload(app, [fixturePart("mocha", "mocha-namesakes.json")], {
      run_key: "mocha-namesakes",
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().counts).toEqual({ total: 5, passed: 3, failed: 1, pending: 1, flaky: 0 });
    expect(res.json().warnings).toEqual([]);
    const tests = await storedTests("mocha-namesakes");
    expect(tests.map((t) => t.name)).toEqual([
      "counts an attempt",
      "keeps the last attempt",
      "counts an attempt",
      "keeps the last attempt",
      "stops after the limit",
    ]);
    expect(new Set(tests.map((t) => t.test_id)).size).toBe(5);

    // Uploaded again, to the same run and to a new one: the same tests, in the same places.
    const again = await upload(app, [fixturePart("mocha", "mocha-namesakes.json")], {
      run_key: "mocha-namesakes",
    });
    expect(again.json()).toMatchObject({ inserted: 0, duplicates: 5, counts: res.json().counts });
    const other = await upload(app, [fixturePart("mocha", "mocha-namesakes.json")]);
    const ids = (await storedTests(other.json().test_run_key)).map((t) => t.test_id);
    expect(ids).toEqual(tests.map((t) => t.test_id));
  });

  it("counts every same-named JUnit test case, as the header does, by default", async () => {
    const res = await upload(app, [{ name: "TEST-PriceTest.xml", content: PARAMETERIZED }]);
    expect(res.statusCode).toBe(201);
    expect(res.json().counts).toEqual({ total: 4, passed: 2, failed: 1, pending: 1, flaky: 0 });
    expect(res.json().warnings).toEqual([]);
  });

  it("merges them as retries of one test when the upload asks for junit_retries", async () => {
    const res = await upload(app, [{ name: "TEST-PriceTest.xml", content: PARAMETERIZED }], {
      junit_retries: "true",
    });
    expect(res.statusCode).toBe(201);
    // "rounds": passed, failed, then skipped: its last attempt decides.
    expect(res.json().counts).toEqual({ total: 2, passed: 1, failed: 0, pending: 1, flaky: 0 });
    expect(res.json().inserted).toBe(4);
  });

  it("names junit_retries in the upload form at /docs", async () => {
    const spec = (await app.inject({ method: "GET", url: "/docs/json" })).json();
    const form =
      spec.paths["/v1/ingest/reports"].post.requestBody.content["multipart/form-data"].schema;
    expect(form.properties.junit_retries.description).toContain("same-named test cases");
  });
});

describe("retried tests that share a name", () => {
  /** Each stored test's results (test_run_test_id), in attempt order. */
  async function attemptsByTest(key: string): Promise<string[][]> {
    const { rows } = await database.db.pool.query<{ ids: string[] }>(
      `SELECT array_agg(r.test_run_test_id ORDER BY r.attempt) AS ids
       FROM results r JOIN runs ON runs.id = r.run_id
       WHERE runs.test_run_key = $1 GROUP BY r.test_id ORDER BY min(r.id)`,
      [key],
    );
    return rows.map((row) => row.ids);
  }

  it("keeps Allure's attempts with their own historyId when they interleave in time", async () => {
    // allure-mocha, mocha --parallel: firefox's first try, chrome's first try, firefox's retry,
    // chrome's retry, in that order of start; one title and suite, a browser parameter apart.
    const [firefoxRetry, firefoxFirst, chromeFirst, chromeRetry] = [
      "7719c228-a297-4b89-9c02-75f07e73578c",
      "7b9dc9e4-98f3-4f04-b6dd-1b8f9aad68d9",
      "88b1f221-6b6b-45b8-91a6-f12760f5faa1",
      "e0f836fb-7993-432d-b3f5-90841d8e5d77",
    ];
    const parts = [firefoxRetry, firefoxFirst, chromeFirst, chromeRetry].map((uuid) =>
      fixturePart("allure", `interleaved/${uuid}-result.json`, `${uuid}-result.json`),
    );
    const res = await upload(app, parts, { run_key: "allure-interleaved" });
    expect(res.statusCode).toBe(201);
    // Both failed once and passed on the retry.
    expect(res.json().counts).toEqual({ total: 2, passed: 2, failed: 0, pending: 0, flaky: 2 });
    expect(await attemptsByTest("allure-interleaved")).toEqual([
      [firefoxFirst, firefoxRetry],
      [chromeFirst, chromeRetry],
    ]);
    const again = await upload(app, parts, { run_key: "allure-interleaved" });
    expect(again.json()).toMatchObject({ inserted: 0, duplicates: 4, counts: res.json().counts });
  });

  it("stores each retried Mocha test of one full title as a test of its own", async () => {
    // Mocha lists each once, with its final attempt: currentRetry 1, 2 and 0.
    const res = await upload(app, [fixturePart("mocha", "mocha-namesake-retries.json")], {
      run_key: "mocha-namesake-retries",
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().counts).toEqual({ total: 3, passed: 3, failed: 0, pending: 0, flaky: 0 });
    expect(res.json().warnings).toEqual([]);
    const tests = await attemptsByTest("mocha-namesake-retries");
    expect(tests.map((ids) => ids.length)).toEqual([1, 1, 1]);
    const again = await upload(app, [fixturePart("mocha", "mocha-namesake-retries.json")], {
      run_key: "mocha-namesake-retries",
    });
    expect(again.json()).toMatchObject({ inserted: 0, duplicates: 3, counts: res.json().counts });
  });
});

describe("a test case without a name (jest-junit)", () => {
  it("is stored under a name from its file, with the others, and the answer says so", async () => {
    const res = await upload(app, [fixturePart("junit", "jest-junit-nameless.xml")], {
      run_key: "nameless",
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().counts.total).toBe(3);
    expect(res.json().warnings).toEqual([
      "jest-junit-nameless.xml: a <testcase> has neither a name nor a classname; stored as 'unnamed test 1 in tests-nameless/promiseReject.test.js'.",
    ]);
    expect((await storedTests("nameless"))[0]!.name).toBe(
      "unnamed test 1 in tests-nameless/promiseReject.test.js",
    );
  });
});

describe("totals that disagree with the tests listed", () => {
  const trimmed = Buffer.from(`<testsuites tests="5" failures="1" skipped="2">
<testsuite name="s"><testcase name="a"/><testcase name="b"><failure/></testcase>
<testcase name="c"/><testcase name="d"><skipped/></testcase></testsuite></testsuites>`);
  const WARNING =
    "trimmed.xml: the report's totals say 5 tests, 2 skipped, but it lists 4 tests, 1 skipped; " +
    "the 4 test cases listed are stored. Likely cause: the reporter was configured to leave " +
    "skipped or pending tests out of the file.";

  it("keeps the listed tests, warns in the answer and shows the warning on the run, once", async () => {
    const fields = { run_key: "trimmed-frontend" };
    const res = await upload(app, [{ name: "trimmed.xml", content: trimmed }], fields);
    expect(res.statusCode).toBe(201);
    expect(res.json().counts.total).toBe(4);
    expect(res.json().warnings).toEqual([WARNING]);
    await upload(app, [{ name: "trimmed.xml", content: trimmed }], fields);
    const run = await app.inject({ method: "GET", url: "/v1/test-runs/trimmed-frontend" });
    expect(run.json().warnings).toEqual([WARNING]);
  });

  it("shows it on a backend run's dialog too", async () => {
    const fields = { run_key: "trimmed-backend", family: "backend" };
    await upload(app, [{ name: "trimmed.xml", content: trimmed }], fields);
    const run = await app.inject({ method: "GET", url: "/v1/api-test-run/trimmed-backend" });
    expect(run.statusCode).toBe(200);
    expect(run.json().warnings).toEqual([WARNING]);
  });

  it("leaves a run without warnings when its report adds up", async () => {
    await upload(app, [fixturePart("junit", "mocha-junit.xml")], { run_key: "adds-up" });
    const run = await app.inject({ method: "GET", url: "/v1/test-runs/adds-up" });
    expect(run.json().warnings).toEqual([]);
  });
});

describe("a report's garbled test times", () => {
  it("store the run, ending it at the upload rather than at its start plus centuries", async () => {
    const report = `<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="api.Orders" tests="1" timestamp="2026-11-28T09:00:00">
<testcase name="lists orders" classname="api.Orders" time="100000000000"/>
</testsuite>`;
    const res = await upload(app, [{ name: "TEST-api.Orders.xml", content: report }], {
      run_key: "garbled-times",
    });
    expect(res.statusCode, res.body).toBe(201);
    const { rows } = await database.db.pool.query<{ started_at: Date; finished_at: Date }>(
      "SELECT started_at, finished_at FROM runs WHERE test_run_key = 'garbled-times'",
    );
    expect(rows[0]!.started_at.toISOString()).toBe("2026-11-28T09:00:00.000Z");
    // Not the start plus the tests' time (3,000 years): the upload's time.
    expect(Math.abs(rows[0]!.finished_at.getTime() - Date.now())).toBeLessThan(60_000);
  });
});
