import type pg from "pg";
import { NOT_PENDING_MESSAGE_SQL } from "../../db/pending-sql.js";
import { runAtOfParam } from "../../db/results-sql.js";

/**
 * A run's failures as triage reads them (issue 34): the final attempts that failed and are not
 * pending, with their error texts and the facts the Failures screen filters by. Read inside the
 * transaction that stored them (ingest) or after (the backfill), through runs' service.
 */

export interface RunFacts {
  id: number;
  key: string;
  family: string;
  executor: string | null;
  branch: string | null;
  at: Date;
}

export interface RunFailureRow {
  id: number;
  test_id: number;
  error_name: string | null;
  error_message: string | null;
  error_stack: string | null;
  platform: string | null;
  branch: string | null;
  nora_site: string | null;
  seen_at: Date;
}

/** Long stacks are cut: the top own frame is near the start, and a 1 MB stack is not read twice. */
const STACK_CHARS = 8000;

export async function runFacts(client: pg.ClientBase, runId: number): Promise<RunFacts | null> {
  const { rows } = await client.query<RunFacts>(
    `SELECT id::int, test_run_key AS key, family, executor, branch,
            coalesce(started_at, created_at) AS at
     FROM runs WHERE id = $1`,
    [runId],
  );
  return rows[0] ?? null;
}

export async function runFailures(client: pg.ClientBase, runId: number): Promise<RunFailureRow[]> {
  const { rows } = await client.query<RunFailureRow>(
    `SELECT r.id::float8 AS id, r.test_id::float8 AS test_id, r.error_name,
            left(r.error_message, ${STACK_CHARS}) AS error_message,
            left(r.error_stack, ${STACK_CHARS}) AS error_stack,
            r.platform, coalesce(r.branch, runs.branch) AS branch,
            coalesce(r.nora_site, runs.nora_site) AS nora_site,
            coalesce(r.start_time, runs.started_at, runs.created_at) AS seen_at
     FROM results r JOIN runs ON runs.id = r.run_id
     WHERE r.run_id = $1 AND r.run_at = ${runAtOfParam(1)} AND r.is_final AND r.status = 'failed' AND ${NOT_PENDING_MESSAGE_SQL.replaceAll("error_message", "r.error_message")}`,
    [runId],
  );
  return rows;
}

/** Runs after `afterId` in id order, a page at a time (the backfill walks every run once). */
export async function runIdsAfter(
  client: pg.ClientBase,
  afterId: number,
  limit: number,
): Promise<number[]> {
  const { rows } = await client.query<{ id: number }>(
    `SELECT id::float8 AS id FROM runs WHERE id > $1 AND family <> 'load' ORDER BY id LIMIT $2`,
    [afterId, limit],
  );
  return rows.map((row) => row.id);
}

/** A run's id and state by its key (the quality gate). */
export async function runStateByKey(
  db: pg.Pool,
  key: string,
): Promise<{ id: number; state: "open" | "finished"; family: string } | null> {
  const { rows } = await db.query<{ id: number; state: "open" | "finished"; family: string }>(
    `SELECT id::float8 AS id, state, family FROM runs WHERE test_run_key = $1`,
    [key],
  );
  return rows[0] ?? null;
}
