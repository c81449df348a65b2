import type { Db } from "../../db/pool.js";

/**
 * The load trends' reads: a load run, the runs of its job up to it, and their per-endpoint
 * statistics (load_stats, by run id).
 */

export interface TrendRunRow {
  id: number;
  key: string;
  name: string;
  created_at: Date;
  test_file: string | null;
  env: string | null;
}

const RUN_COLUMNS = `id::float8 AS id, test_run_key AS key, test_run_name AS name, created_at,
  test_file, env`;

export async function findLoadRun(db: Db, key: string): Promise<TrendRunRow | undefined> {
  const { rows } = await db.pool.query<TrendRunRow>(
    `SELECT ${RUN_COLUMNS} FROM runs WHERE test_run_key = $1 AND family = 'load'`,
    [key],
  );
  return rows[0];
}

/**
 * The job's runs up to and including `run`, newest first, at most `limit`: a load job is one
 * Locust file against one environment, whoever started it (runs_family_env_idx). The run's own
 * created_at is read in SQL: a JavaScript Date would cut its microseconds off.
 */
export async function jobRunsUpTo(db: Db, run: TrendRunRow, limit: number): Promise<TrendRunRow[]> {
  const { rows } = await db.pool.query<TrendRunRow>(
    `SELECT ${RUN_COLUMNS} FROM runs
     WHERE family = 'load' AND env IS NOT DISTINCT FROM $1 AND test_file IS NOT DISTINCT FROM $2
       AND (created_at, id) <= (SELECT created_at, id FROM runs WHERE id = $3)
     ORDER BY created_at DESC, id DESC
     LIMIT $4`,
    [run.env, run.test_file, run.id, limit],
  );
  return rows;
}

export interface EndpointStatRow {
  run_id: number;
  method: string;
  name: string;
  requests: number;
  failures: number;
  median_ms: number | null;
  p95_ms: number | null;
  requests_per_s: number;
  aggregated: boolean;
}

export async function statsOfRuns(db: Db, runIds: readonly number[]): Promise<EndpointStatRow[]> {
  const { rows } = await db.pool.query<EndpointStatRow>(
    `SELECT run_id::float8 AS run_id, method, name, requests, failures, median_ms, p95_ms,
            requests_per_s, aggregated
     FROM load_stats WHERE run_id = ANY($1::bigint[])
     ORDER BY run_id, id`,
    [runIds],
  );
  return rows;
}
