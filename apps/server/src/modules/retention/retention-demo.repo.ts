import type pg from "pg";
import { textsOfResult } from "../../db/results-sql.js";

/**
 * The demo's archive: copies of a few of the demo's oldest frontend runs, moved back in time,
 * for the demo's retention pass to act on (the demo's own 60 days are younger than any period of
 * the example policy). Copies carry no attachments of the originals: their objects are shared.
 */

/** Copies the run `key` (row and results) as `copyKey`, `daysBack` days earlier; returns its id. */
export async function copyRunBack(
  pool: pg.Pool,
  key: string,
  copyKey: string,
  daysBack: number,
): Promise<number | null> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const shift = `make_interval(days => ${Math.round(daysBack)})`;
    const { rows } = await client.query<{ id: number }>(
      `INSERT INTO runs (test_run_key, family, test_run_name, state, format, nora_site, env, baseurl,
         executor, branch, commit, is_next_gen, total, passed, failed, pending, flaky, duration_ms,
         started_at, finished_at, created_at)
       SELECT $2, family, test_run_name || ' (archive)', state, format, nora_site, env, baseurl,
         executor, branch, commit, is_next_gen, total, passed, failed, pending, flaky, duration_ms,
         started_at - ${shift}, finished_at - ${shift}, created_at - ${shift}
       FROM runs WHERE test_run_key = $1
       RETURNING id::float8 AS id`,
      [key, copyKey],
    );
    const id = rows[0]?.id;
    if (id === undefined) {
      await client.query("ROLLBACK");
      return null;
    }
    await client.query(
      `INSERT INTO results (run_id, test_run_test_id, test_id, attempt, is_final, flaky, status,
         failure_type, name, suite_path, title, file, error_message, error_name, error_stack, tags,
         start_time, end_time, duration_ms, json_steps, json_before_steps, steps_ref,
         before_steps_ref, stack_ref, run_at)
       SELECT $2, test_run_test_id, test_id, attempt, is_final, flaky, status, failure_type, name,
         suite_path, title, file, error_message, error_name, error_stack, tags,
         start_time - ${shift}, end_time - ${shift}, duration_ms, json_steps, json_before_steps,
         steps_ref, before_steps_ref, stack_ref, (SELECT created_at FROM runs WHERE id = $2)
       FROM results WHERE run_id = (SELECT id FROM runs WHERE test_run_key = $1)`,
      [key, id],
    );
    // The copy's month holds the texts its results refer to (migration 0216).
    await client.query(
      `INSERT INTO result_texts (month, hash, body)
       SELECT date_trunc('month', (SELECT created_at FROM runs WHERE id = $2), 'UTC'), t.hash, t.body
       FROM results r JOIN result_texts t ON ${textsOfResult("r", "t")}
       WHERE r.run_id = (SELECT id FROM runs WHERE test_run_key = $1)
       ON CONFLICT DO NOTHING`,
      [key, id],
    );
    await client.query("COMMIT");
    return id;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** The demo's oldest finished frontend runs by the daily executor, oldest first. */
export async function oldestDailyRuns(
  pool: pg.Pool,
  executor: string,
  limit: number,
): Promise<{ key: string; failed: number }[]> {
  const { rows } = await pool.query<{ key: string; failed: number }>(
    `SELECT test_run_key AS key, failed FROM runs
     WHERE family = 'frontend' AND executor = $1 AND state = 'finished'
     ORDER BY created_at LIMIT $2`,
    [executor, limit],
  );
  return rows;
}

/** Up to `limit` passed results of the run, for the demo's attachments. */
export async function passedResultIds(pool: pg.Pool, runId: number, limit: number) {
  const { rows } = await pool.query<{ id: number }>(
    `SELECT id::float8 AS id FROM results WHERE run_id = $1 AND status = 'passed' ORDER BY id LIMIT $2`,
    [runId, limit],
  );
  return rows.map((row) => row.id);
}

export async function addAttachment(pool: pg.Pool, resultId: number, key: string, size: number) {
  await pool.query(
    `INSERT INTO attachments (result_id, name, content_type, object_key, size)
     VALUES ($1, 'screenshot.png', 'image/png', $2, $3)`,
    [resultId, key, size],
  );
}
