import { writeFile } from "node:fs/promises";
import type pg from "pg";
import type { LocalFile } from "./upload.js";

/*
 * Inputs of the triage bench (triage-bench.ts): a run whose every test failed, and triage's tables
 * as a store of 10M results leaves them.
 */

const esc = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * A JUnit report of `tests` test cases, all failed through `causes` helpers: every message has
 * its own numbers (`expected 200 but got 500 for /api/svcN/<id> after <ms>ms`), as a backend
 * whose services are down writes them; so each text is fingerprinted, none is a repeat.
 */
export async function writeAllFailedReport(
  file: string,
  tests: number,
  causes: number,
): Promise<LocalFile> {
  const cases: string[] = [];
  for (let i = 0; i < tests; i++) {
    const svc = i % causes;
    const message = `expected 200 but got 500 for /api/svc${svc}/${100_000 + i * 7} after ${200 + (i % 997)}ms`;
    const stack = [
      `java.lang.AssertionError: ${message}`,
      "\tat org.junit.Assert.fail(Assert.java:89)",
      `\tat com.example.bench.Client${svc}.call(Client${svc}.java:${40 + (i % 30)})`,
      `\tat com.example.bench.Svc${svc}Test.case${i}(Svc${svc}Test.java:${12 + (i % 50)})`,
      "\tat java.base/jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)",
    ].join("\n");
    cases.push(
      `<testcase classname="bench.Svc${svc}Test" name="case${i}" time="0.05"><failure message="${esc(message)}" type="java.lang.AssertionError">${esc(stack)}</failure></testcase>`,
    );
  }
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="bench" tests="${tests}" failures="${tests}">\n${cases.join("\n")}\n</testsuite>\n`;
  await writeFile(file, xml);
  return { name: "TEST-bench.xml", path: file, size: Buffer.byteLength(xml) };
}

export interface StoreShape {
  /** Daily runs (two years by default). */
  runs: number;
  /** Results per run. */
  perRun: number;
  /** Share of results that failed. */
  failedShare: number;
  /** Distinct causes over the whole period. */
  groups: number;
}

/**
 * Triage's tables (triage_runs, failure_groups, result_fingerprints, defect_decisions) as
 * `shape.runs` daily runs of `shape.perRun` results leave them: the Failures screen reads only
 * these (never results), so results themselves are not written. A few causes take most failures
 * (group ids drawn as runs^3, a long tail), each run's failures spread over platforms, branches
 * and sites; a fifth of the failures have a person's decision. Returns the failures written.
 */
export async function fillTriageStore(pool: pg.Pool, shape: StoreShape): Promise<number> {
  const failures = Math.round(shape.perRun * shape.failedShare);
  await pool.query(
    `INSERT INTO runs (test_run_key, family, test_run_name, state, nora_site, executor, branch,
                       total, failed, started_at, created_at)
     SELECT 'nightly-' || i, CASE WHEN i % 4 = 0 THEN 'backend' ELSE 'frontend' END,
            'nightly ' || i, 'finished', 'site' || (i % 4) || '.example.com', 'daily robot',
            CASE WHEN i % 7 = 0 THEN 'release' ELSE 'main' END, $2::int, $3::int, d, d
     FROM generate_series(1, $1::int) i,
          LATERAL (SELECT date_trunc('day', now()) - make_interval(days => $1::int - i)
                          + interval '2 hours' AS d) x`,
    [shape.runs, shape.perRun, failures],
  );
  await pool.query(
    `INSERT INTO triage_runs (run_id, run_key, family, executor, branch, run_at)
     SELECT id, test_run_key, family, executor, branch, created_at FROM runs`,
  );
  const { rows } = await pool.query<{ first: string }>("SELECT min(id) AS first FROM runs");
  const firstRun = Number(rows[0]!.first);
  await pool.query(
    `INSERT INTO failure_groups (fingerprint, error_type, message, frame, sample_message,
                                 sample_stack, first_run_id, first_seen_at, last_seen_at)
     SELECT substr(md5(g::text), 1, 16), 'AssertionError',
            'expected <n> but got <n> for /api/svc' || g || '/<n>', 'Client' || g || '.call',
            'expected 200 but got 500 for /api/svc' || g || '/1', 'at Client' || g || '.call',
            $2::bigint + (g * 7919) % $1::int, now(), now()
     FROM generate_series(1, $3::int) g`,
    [shape.runs, firstRun, shape.groups],
  );
  // One run at a time keeps each statement's memory small; the ids are the results' own.
  for (let run = firstRun; run < firstRun + shape.runs; run += 30) {
    await pool.query(
      `INSERT INTO result_fingerprints (result_id, run_id, test_id, group_id, family, platform,
                                        branch, nora_site, seen_at)
       SELECT r.id * 1000000 + n, r.id, 1000 + (n * 37) % $3::int,
              1 + floor($4::int * power(random(), 3))::int, r.family,
              (ARRAY['linux','windows','macos'])[1 + n % 3], r.branch, r.nora_site,
              r.created_at + n * interval '1 second'
       FROM runs r, generate_series(1, $2::int) n
       WHERE r.id >= $1 AND r.id < $1 + 30`,
      [run, failures, shape.perRun, shape.groups],
    );
  }
  await pool.query(
    `UPDATE failure_groups g SET last_seen_at = s.last, first_seen_at = s.first
     FROM (SELECT group_id, max(seen_at) AS last, min(seen_at) AS first
           FROM result_fingerprints GROUP BY group_id) s
     WHERE s.group_id = g.id`,
  );
  await pool.query(
    `WITH made AS (
       INSERT INTO defect_decisions (result_id, run_id, type, auto, decided_by, decided_at)
       SELECT result_id, run_id,
              (ARRAY['product_bug','automation_bug','system_issue','no_defect'])[1 + group_id % 4],
              false, 'lead@example.com', seen_at + interval '6 hours'
       FROM result_fingerprints WHERE result_id % 5 = 0
       RETURNING id, result_id, type)
     UPDATE result_fingerprints rf SET defect_id = made.id, defect_type = made.type FROM made
     WHERE rf.result_id = made.result_id`,
  );
  for (const table of ["runs", "triage_runs", "failure_groups", "result_fingerprints"]) {
    await pool.query(`VACUUM ANALYZE ${table}`);
  }
  await pool.query("VACUUM ANALYZE defect_decisions");
  return failures * shape.runs;
}
