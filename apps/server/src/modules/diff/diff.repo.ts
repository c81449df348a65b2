import type { Db } from "../../db/pool.js";
import { PENDING_MESSAGE_SQL } from "../../db/pending-sql.js";

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
 */
export async function previousRunOfJob(db: Db, run: DiffRunRow): Promise<DiffRunRow | undefined> {
  const { rows } = await db.pool.query<DiffRunRow>(
    `SELECT ${RUN_COLUMNS} FROM runs
     WHERE family = $1 AND executor IS NOT DISTINCT FROM $2 AND branch IS NOT DISTINCT FROM $3
       AND nora_site IS NOT DISTINCT FROM $4 AND env IS NOT DISTINCT FROM $5
       AND is_china_region = $6 AND is_next_gen = $7
       AND (created_at, id) < ($8, $9)
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
      run.created_at,
      run.id,
    ],
  );
  return rows[0];
}

/**
 * A final result as the diff compares it: status 'skipped' for a pending failure (spec §4's
 * rule, stated in SQL by pending-sql.ts), so that a pending test is neither failing nor fixed.
 * Rows come as arrays: 14,000 rows parse faster without a key per field.
 */
export type OutcomeRow = [
  testId: number,
  testRunTestId: string,
  name: string,
  status: "passed" | "failed" | "skipped",
  flaky: boolean,
  durationMs: number,
];

export async function finalOutcomes(db: Db, runId: number): Promise<OutcomeRow[]> {
  const { rows } = await db.pool.query<OutcomeRow>({
    text: `SELECT test_id::float8, test_run_test_id, name,
                  CASE WHEN status = 'failed' AND ${PENDING_MESSAGE_SQL} THEN 'skipped'
                       ELSE status END,
                  flaky, duration_ms
           FROM results WHERE run_id = $1 AND is_final`,
    values: [runId],
    rowMode: "array",
  });
  return rows;
}
