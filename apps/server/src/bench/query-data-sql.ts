/*
 * The SQL that generates query-data.ts's dataset: the tests' shape, the runs, their results with
 * their texts (steps, stacks, logs), screenshots and per-run counts. Split from query-data.ts,
 * which runs it, for size.
 */

import { FACT_COLUMNS, factsKey, sha128Of } from "../db/results-sql.js";

export const FIRST_TEST_ID = 1_000_000;

export const SHAPE = `
  CREATE UNLOGGED TABLE bench_test_shape AS
  SELECT n,
         substr(md5(n::text), 1, 16) AS trt_id,
         (ARRAY['shows','updates','rejects','accepts','keeps','sorts','filters','opens'])[1 + n % 8]
           || ' ' || (ARRAY['the total','a coupon','the address form','the basket badge','a saved card'])[1 + (n / 8) % 5]
           || ' ' || (ARRAY['on a slow network','after a reload','for a guest','in dark mode','twice'])[1 + (n / 40) % 5]
           || ' (' || n || ')' AS name,
         ARRAY[a || '-m' || (n / 500), a || '-flow-' || ((n / 25) % 20)] AS suite_path,
         'tests/' || a || '-m' || (n / 500) || '/' || a || '-flow-' || ((n / 25) % 20) || '.spec.ts' AS file
  FROM generate_series(1, $1::int) AS n,
       LATERAL (SELECT (ARRAY['checkout','cart','search','accounts','payments','catalogue',
                              'shipping','reviews','wishlist','notifications'])[1 + (n / 500) % 10] AS a) area`;

export const RUNS = `
  INSERT INTO runs (test_run_key, family, test_run_name, state, format, nora_site, executor, branch,
                    commit, total, started_at, finished_at, created_at)
  SELECT 'frontend-' || to_char(d, 'YYYYMMDD') || '-nightly', 'frontend',
         to_char(d, 'YYYY-MM-DD') || ' nightly', 'finished', 'junit', 'stage.legacy.example.com',
         'daily robot executor', 'main', md5(i::text),
         $2::int - $3::int / 2 + (i * $3::int) / greatest($1::int - 1, 1),
         d, d + interval '90 minutes', d
  FROM generate_series(0, $1::int - 1) AS i,
       LATERAL (SELECT date_trunc('day', now()) - make_interval(days => $1::int - i) + interval '2 hours' AS d) x
  ORDER BY i`;

/** A text's key in result_texts as ingestion makes it (result-texts.ts): SHA-256's first 128 bits. */
export const textKey = sha128Of;

/**
 * A test's 3 steps (the same in every run, one text per test), as the JSON text ingestion
 * stores: `n` is the test's number.
 */
export const stepsOf = (n: string) =>
  `('[{"action":"open the page","passed":true},{"action":"fill the form","passed":true},` +
  `{"action":"check result ' || lpad((${n} % 100000)::text, 5, '0') || '","passed":true}]')`;

/**
 * The texts of the runs $1..$2 in their month of result_texts, each once (migration 0216), as
 * ingestion stores them; results refer to them by their key (textKey).
 */
export const TEXTS = `
  INSERT INTO result_texts (month, hash, body)
  SELECT DISTINCT date_trunc('month', r.created_at, 'UTC'), ${textKey(stepsOf("s.n"))},
         ${stepsOf("s.n")}
  FROM runs r JOIN bench_test_shape s ON s.n <= r.total
  WHERE r.id BETWEEN $1 AND $2
  ORDER BY 2
  ON CONFLICT DO NOTHING`;

/** A test's stack when it fails (the same in each run): `file` and `n` are the test's. */
export const stackOf = (file: string, n: string) =>
  `('AssertionError: expected the badge to show the total'
    || E'\\n    at Context.<anonymous> (' || ${file} || ':' || (${n} % 400) || ':13)'
    || repeat(E'\\n    at runTest (node_modules/mocha/lib/runner.js:412:21)', 8))`;
export const LOG = `repeat(E'[00:01.123] GET /api/cart/1234 -> 500\\n', 4)`;

/**
 * The stacks and logs of the failures in their month's texts, once every run is written (the
 * file from the test's row: a result's own is NULL where it is its test's, migration 0221).
 */
export const FAILURE_TEXTS = `
  INSERT INTO result_texts (month, hash, body)
  SELECT DISTINCT date_trunc('month', r.run_at, 'UTC'), t.hash, t.body
  FROM results r JOIN tests test ON test.id = r.test_id,
       LATERAL (VALUES (r.stack_ref, ${stackOf("test.file", `(r.test_id - ${FIRST_TEST_ID})`)}),
                       (r.log_ref, ${LOG})) AS t(hash, body)
  WHERE r.status = 'failed'
  ORDER BY 2
  ON CONFLICT DO NOTHING`;

/**
 * A result's run facts (FACT_COLUMNS' order) from `x`'s run_id, commit and n: the run's site,
 * commit and branch, a version per 30 days, one browser and platform, 8 CI runners by test.
 */
const factsOf = (x: string) => [
  "'stage.example.com'",
  `'5.' || (${x}.run_id / 30)`,
  `${x}.commit`,
  "'126.0.6478.126'",
  "'linux'",
  `'ci-runner-' || (${x}.n % 8)`,
  "'main'",
  "NULL::text",
];

/**
 * The distinct tuples of facts of the runs $1..$2 (8 a run: one per runner), each once in
 * result_facts as ingestion stores them (migration 0222); no two runs share one (their commits).
 */
export const FACTS = `
  INSERT INTO result_facts (key, ${FACT_COLUMNS.join(", ")})
  SELECT ${factsKey(factsOf("x"))}, ${factsOf("x").join(", ")}
  FROM (SELECT r.id AS run_id, r.commit, n FROM runs r, generate_series(0, 7) AS n
        WHERE r.id BETWEEN $1 AND $2) x`;

/** RESULTS' facts: the tuple's id where the layout has result_facts, else the values in the row. */
export function factsOfResults(tuples: boolean): { columns: string; values: string } {
  if (tuples) {
    return {
      columns: "facts_id",
      values: `(SELECT id FROM result_facts WHERE key = ${factsKey(factsOf("x"))})`,
    };
  }
  return { columns: FACT_COLUMNS.join(", "), values: factsOf("x").join(", ") };
}

// About 10% failures: one test in 20 fails half the time (the Top Fails), the others 7.5%.
// RUN_AT: the partition key where the layout has one (migration 0191; not in an older one).
// NAMES_VALUES: NULL where `tests` holds the test's names (0221), as ingestion writes a test
// known by its identity; the bench's tests are all the same in every run. FACTS_COLUMNS and
// FACTS_VALUES: factsOfResults.
export const RESULTS = `
  INSERT INTO results (id, run_id, RUN_AT test_run_test_id, test_id, status, failure_type, name, suite_path,
                       file, error_message, STACK_COLUMN, LOG_COLUMN, tags, start_time, end_time,
                       duration_ms, FACTS_COLUMNS, STEPS_COLUMN)
  SELECT x.run_id * 100000 + x.n, x.run_id, RUN_AT_VALUE x.trt_id, ${FIRST_TEST_ID} + x.n, x.status,
         CASE WHEN x.status = 'failed' THEN CASE WHEN x.n % 5 = 0 THEN 'error' ELSE 'failure' END END,
         NAMES_VALUES,
         CASE WHEN x.status = 'failed' THEN 'AssertionError: expected "' || (x.n % 97) || '" to equal "'
              || (x.n % 89) || '" & the badge to show <' || (x.n % 9) || '>' END,
         CASE WHEN x.status = 'failed' THEN STACK_VALUE END,
         CASE WHEN x.status = 'failed' THEN LOG_VALUE END,
         CASE WHEN x.n % 10 = 0 THEN '{smoke}'::text[] ELSE '{}'::text[] END,
         x.started + x.n * interval '350 ms',
         x.started + x.n * interval '350 ms' + x.dur * interval '1 ms',
         x.dur, FACTS_VALUES,
         STEPS_VALUE
  FROM (
    SELECT r.id AS run_id, r.created_at AS run_at, r.started_at AS started, r.commit, s.n, s.trt_id, s.name, s.suite_path, s.file,
           CASE WHEN random() < CASE WHEN s.n % 20 = 0 THEN 0.5 ELSE 0.075 END THEN 'failed'
                WHEN s.n % 40 = 3 THEN 'skipped' ELSE 'passed' END AS status,
           (50 + random() * 5000)::int AS dur
    FROM runs r JOIN bench_test_shape s ON s.n <= r.total
    WHERE r.id BETWEEN $1 AND $2
  ) x`;

// UI failures come with a screenshot: the run screen shows each result's last one.
export const SCREENSHOTS = `
  INSERT INTO attachments (result_id, name, content_type, taken_at, object_key, size)
  SELECT id, 'screenshot', 'image/png', end_time, 'objects/' || md5(id::text) || '.png', 48000
  FROM results WHERE status = 'failed'`;

export const COUNTS = `
  UPDATE runs r SET total = c.total, passed = c.passed, failed = c.failed, pending = c.pending,
                    flaky = 0, duration_ms = c.duration_ms, finished_at = c.finished_at
  FROM (SELECT run_id, count(*)::int AS total,
               count(*) FILTER (WHERE status = 'passed')::int AS passed,
               count(*) FILTER (WHERE status = 'failed')::int AS failed,
               count(*) FILTER (WHERE status = 'skipped')::int AS pending,
               sum(duration_ms) AS duration_ms, max(end_time) AS finished_at
        FROM results GROUP BY run_id) c
  WHERE c.run_id = r.id`;
