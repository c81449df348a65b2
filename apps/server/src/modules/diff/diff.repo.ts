import type { Db } from "../../db/pool.js";
import { PENDING_MESSAGE_SQL } from "../../db/pending-sql.js";
import { nameOf, runAtOfParam } from "../../db/results-sql.js";

/**
 * The run diff's reads: two runs by key, each one's final results, and the run before a run in
 * its job. Results are read by run id only (results' (run_id, test_run_test_id) index), so the
 * reads stay one index range per run however results are stored or partitioned.
 */

export interface DiffRunRow {
  id: number;
  key: string;
  name: string;
  family: "frontend" | "backend" | "load";
  created_at: Date;
  total: number;
  executor: string | null;
  branch: string | null;
  nora_site: string | null;
  env: string | null;
  is_china_region: boolean;
  is_next_gen: boolean;
}

const RUN_COLUMNS = `id::float8 AS id, test_run_key AS key, test_run_name AS name, family,
  created_at, total, executor, branch, nora_site, env, is_china_region, is_next_gen`;

export async function findRunByKey(db: Db, key: string): Promise<DiffRunRow | undefined> {
  const { rows } = await db.pool.query<DiffRunRow>(
    `SELECT ${RUN_COLUMNS} FROM runs WHERE test_run_key = $1`,
    [key],
  );
  return rows[0];
}

/**
 * The latest run stored before `run` in its job: the same family, executor, branch, site,
 * environment and platform (a daily robot's run on one site is followed by the next day's on
 * that site, not by a person's run on their branch). Ties on created_at go by id, as the lists.
 * The run's own created_at is read in SQL: a JavaScript Date would cut its microseconds off.
 */
export async function previousRunOfJob(db: Db, run: DiffRunRow): Promise<DiffRunRow | undefined> {
  const { rows } = await db.pool.query<DiffRunRow>(
    `SELECT ${RUN_COLUMNS} FROM runs
     WHERE family = $1 AND executor IS NOT DISTINCT FROM $2 AND branch IS NOT DISTINCT FROM $3
       AND nora_site IS NOT DISTINCT FROM $4 AND env IS NOT DISTINCT FROM $5
       AND is_china_region = $6 AND is_next_gen = $7
       AND (created_at, id) < (SELECT created_at, id FROM runs WHERE id = $8)
     ORDER BY created_at DESC, id DESC
     LIMIT 1`,
    [
      run.family,
      run.executor,
      run.branch,
      run.nora_site,
      run.env,
      run.is_china_region,
      run.is_next_gen,
      run.id,
    ],
  );
  return rows[0];
}

/** A test in at least one section of the diff, with the sections it is in. */
export interface DiffRow {
  test_id: number;
  name: string;
  test_run_test_id: string;
  added: boolean;
  removed: boolean;
  new_failure: boolean;
  still_failing: boolean;
  fixed: boolean;
  newly_flaky: boolean;
  slower: boolean;
  ms_a: number | null;
  ms_b: number | null;
}

/**
 * Each final result of one run as the diff ranks it: failed 2, passed 1, skipped 0, a pending
 * failure counting as skipped (spec §4, as pending-sql.ts states it), so that a pending test is
 * neither failing nor fixed. Not grouped by test: folding 14,000 rows costs more than the whole
 * join (docs/performance.md), and a test a run holds twice is rare. `n`: the run's parameter;
 * its run_at too, so that only the run's monthly partition is read (results-sql.ts).
 */
const outcomes = (n: number) => `
  SELECT test_id, ${nameOf("results")} AS name, test_run_test_id AS trt, flaky, duration_ms AS ms,
         CASE WHEN status = 'passed' THEN 1
              WHEN status = 'skipped' OR ${PENDING_MESSAGE_SQL} THEN 0 ELSE 2 END AS rank
  FROM results WHERE run_id = $${n} AND run_at = ${runAtOfParam(n)} AND is_final`;

/**
 * The diff of run `a` to run `b`, done where the rows are: each run's outcomes joined on the
 * test, only the tests in some section sent back (a few hundred of 14,000, not 28,000 rows to
 * parse), by name. The rules of the sections are here and nowhere else (RunDiffSchema says
 * them in words); slower needs both thresholds. A test a run holds twice is compared result
 * by result: it is in each section one of its pairs is in.
 */
export async function diffOfRuns(
  db: Db,
  a: number,
  b: number,
  slower: { percent: number; ms: number },
): Promise<DiffRow[]> {
  const { rows } = await db.pool.query<DiffRow>(
    `WITH a AS (${outcomes(1)}), b AS (${outcomes(2)}),
     j AS (
       SELECT coalesce(b.test_id, a.test_id) AS test_id, coalesce(b.name, a.name) AS name,
              coalesce(b.trt, a.trt) AS test_run_test_id,
              a.test_id IS NULL AS added,
              b.test_id IS NULL AS removed,
              b.rank = 2 AND a.rank IS DISTINCT FROM 2 AS new_failure,
              b.rank = 2 AND a.rank = 2 AS still_failing,
              a.rank = 2 AND b.rank = 1 AS fixed,
              b.flaky AND a.flaky IS NOT TRUE AS newly_flaky,
              a.rank = 1 AND b.rank = 1 AND b.ms - a.ms > $3 AND b.ms > a.ms * (1 + $4 / 100.0)
                AS slower,
              a.ms AS ms_a, b.ms AS ms_b
       FROM a FULL JOIN b ON a.test_id = b.test_id
     )
     SELECT test_id::float8 AS test_id, name, test_run_test_id, added, removed, new_failure,
            still_failing, fixed, newly_flaky, slower, ms_a, ms_b
     FROM j
     WHERE added OR removed OR new_failure OR still_failing OR fixed OR newly_flaky OR slower
     ORDER BY name COLLATE "C", test_id`,
    [a, b, slower.ms, slower.percent],
  );
  return rows;
}
