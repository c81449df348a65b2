import type { FastifyInstance } from "fastify";
import { expect, it } from "vitest";
import { useIngestApp } from "../../../../test/ingest-app.js";
import type { TestDatabase } from "../../../../test/test-database.js";
import { TEST_INGEST_TOKEN, upload } from "../../../../test/upload.js";
import { fileOf, nameOf, suitePathOf } from "../../../db/results-sql.js";
import { identityOf } from "../test-ids/test-identity.js";

let database: TestDatabase;
let app: FastifyInstance;

useIngestApp((made) => ({ database, app } = made));

/** A JUnit report of a test known by its name and one with an explicit id (TC4711). */
const report = (explicitName: string, explicitFile: string) => `<?xml version="1.0"?>
<testsuites><testsuite name="Cart" tests="2">
  <testcase classname="Cart" name="adds an item" file="cart.spec.ts" time="0.1"/>
  <testcase classname="Cart" name="${explicitName}" file="${explicitFile}" time="0.2"/>
</testsuite></testsuites>`;

/** Uploads a report; returns its run's key. */
async function uploadRun(xml: string): Promise<string> {
  const response = await upload(app, [{ name: "junit.xml", content: xml }]);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ test_run_key: string }>().test_run_key;
}

it("stores a test's suite path, file and name once, and a renamed explicit test's own, reading both runs back", async () => {
  const first = await uploadRun(report("TC4711 pays by card", "pay.spec.ts"));
  const second = await uploadRun(report("TC4711 pays by saved card", "payments/pay.spec.ts"));

  for (const [key, explicit] of [
    [first, { name: "TC4711 pays by card", file: "pay.spec.ts" }],
    [second, { name: "TC4711 pays by saved card", file: "payments/pay.spec.ts" }],
  ] as const) {
    const { results } = (await app.inject({ method: "GET", url: `/v1/test-runs/${key}` })).json<{
      results: { name: string; file: string | null }[];
    }>();
    expect(results.map((r) => ({ name: r.name, file: r.file }))).toEqual([
      { name: "adds an item", file: "cart.spec.ts" },
      explicit,
    ]);
  }

  // As stored: the test known by its name holds nothing of its own; the explicit one its own
  // (its first registration's names are not this run's); read through the one place, all right.
  const { rows } = await database.db.pool.query(
    `SELECT CASE runs.test_run_key WHEN $1 THEN 1 ELSE 2 END AS run, r.name, r.suite_path, r.file,
            ${nameOf("r")} AS read_name, ${suitePathOf("r")} AS read_suite_path,
            ${fileOf("r")} AS read_file
     FROM results r JOIN runs ON runs.id = r.run_id
     WHERE runs.test_run_key IN ($1, $2) ORDER BY runs.id, r.id`,
    [first, second],
  );
  const known = { name: null, suite_path: null, file: null, read_name: "adds an item" };
  expect(rows).toMatchObject([
    { run: 1, ...known, read_suite_path: ["Cart"], read_file: "cart.spec.ts" },
    {
      run: 1,
      name: "TC4711 pays by card",
      suite_path: ["Cart"],
      file: "pay.spec.ts",
      read_name: "TC4711 pays by card",
    },
    { run: 2, ...known, read_suite_path: ["Cart"], read_file: "cart.spec.ts" },
    {
      run: 2,
      name: "TC4711 pays by saved card",
      file: "payments/pay.spec.ts",
      read_file: "payments/pay.spec.ts",
    },
  ]);
  // The catalogue keeps the names each test was first registered with.
  const { rows: tests } = await database.db.pool.query(
    `SELECT t.name, t.suite_path, t.file FROM tests t
     WHERE t.id IN (SELECT test_id FROM results) ORDER BY t.name`,
  );
  expect(tests).toEqual([
    { name: "TC4711 pays by card", suite_path: ["Cart"], file: "pay.spec.ts" },
    { name: "adds an item", suite_path: ["Cart"], file: "cart.spec.ts" },
  ]);
});

it("names a test registered before the names were kept when its next result leaves them to it", async () => {
  // As migration 0221 leaves a test registered before it: an identity, no name, no suite path.
  const identity = identityOf("frontend", "old.spec.ts", ["Old"], "was there before");
  const { rows: made } = await database.db.pool.query<{ id: string }>(
    `INSERT INTO tests (id, family, identity, title, file)
     VALUES (nextval('test_id_seq'), 'frontend', $1, 'was there before', 'old.spec.ts')
     RETURNING id`,
    [identity],
  );
  const key = await uploadRun(`<?xml version="1.0"?>
<testsuites><testsuite name="Old" tests="1">
  <testcase classname="Old" name="was there before" file="old.spec.ts" time="0.1"/>
</testsuite></testsuites>`);

  const { results } = (await app.inject({ method: "GET", url: `/v1/test-runs/${key}` })).json<{
    results: { name: string; file: string | null; test_id: number }[];
  }>();
  expect(results).toMatchObject([
    { name: "was there before", file: "old.spec.ts", test_id: Number(made[0]!.id) },
  ]);
  const { rows } = await database.db.pool.query(
    `SELECT t.name AS test_name, t.suite_path AS test_suite_path, r.name, r.suite_path, r.file
     FROM results r JOIN runs ON runs.id = r.run_id JOIN tests t ON t.id = r.test_id
     WHERE runs.test_run_key = $1`,
    [key],
  );
  expect(rows).toEqual([
    {
      test_name: "was there before",
      test_suite_path: ["Old"],
      name: null,
      suite_path: null,
      file: null,
    },
  ]);
});

it("ranks a test's attempts as one test when the run holds a row from before the names were kept", async () => {
  const auth = { authorization: `Bearer ${TEST_INGEST_TOKEN}` };
  const opened = await app.inject({
    method: "POST",
    url: "/v1/ingest/runs",
    headers: auth,
    payload: { family: "frontend" },
  });
  expect(opened.statusCode, opened.body).toBe(201);
  const key = opened.json<{ test_run_key: string }>().test_run_key;
  const attempt = (n: number, status: string) =>
    app.inject({
      method: "POST",
      url: `/v1/ingest/runs/${key}/results`,
      headers: auth,
      payload: [
        {
          test_run_test_id: `retried-${n}`,
          name: "retried once",
          suite_path: ["Retry"],
          file: "retry.spec.ts",
          status,
          attempt: n,
        },
      ],
    });
  expect((await attempt(0, "failed")).statusCode).toBe(200);
  // As a row stored before migration 0221: the test's names written out in the result.
  await database.db.pool.query(
    `UPDATE results r SET name = t.name, suite_path = t.suite_path, file = t.file
     FROM tests t, runs WHERE t.id = r.test_id AND runs.id = r.run_id AND runs.test_run_key = $1`,
    [key],
  );
  expect((await attempt(1, "passed")).statusCode).toBe(200);
  const { rows } = await database.db.pool.query(
    `SELECT r.attempt, r.name IS NULL AS left_to_test, r.is_final, r.flaky
     FROM results r JOIN runs ON runs.id = r.run_id WHERE runs.test_run_key = $1 ORDER BY r.attempt`,
    [key],
  );
  expect(rows).toEqual([
    { attempt: 0, left_to_test: false, is_final: false, flaky: false },
    { attempt: 1, left_to_test: true, is_final: true, flaky: true },
  ]);
});
