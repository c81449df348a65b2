import type pg from "pg";

/**
 * Runs waiting for triage (migration 0223): marked by their upload's transaction, removed by the
 * transaction that triaged them (pending.service.ts).
 */

/** Marks the run in its upload's transaction; answers the new mark. */
export async function markPending(client: pg.ClientBase, runId: number): Promise<number> {
  const { rows } = await client.query<{ mark: number }>(
    `INSERT INTO triage_pending (run_id) VALUES ($1)
     ON CONFLICT (run_id) DO UPDATE SET mark = excluded.mark, marked_at = excluded.marked_at
     RETURNING mark::float8 AS mark`,
    [runId],
  );
  return rows[0]!.mark;
}

/**
 * Takes the run's mark for this transaction (the lock is the work's lease): waits for a peer
 * triaging it, or with `skipLocked` leaves it to that peer. Null: nothing to do (not marked,
 * triaged meanwhile, or another's).
 */
export async function lockPending(
  client: pg.ClientBase,
  runId: number,
  skipLocked = false,
): Promise<number | null> {
  const { rows } = await client.query<{ mark: number }>(
    `SELECT mark::float8 AS mark FROM triage_pending WHERE run_id = $1
     FOR UPDATE${skipLocked ? " SKIP LOCKED" : ""}`,
    [runId],
  );
  return rows[0]?.mark ?? null;
}

/** Done up to `mark`: a later upload's mark stays. */
export async function clearPending(
  client: pg.ClientBase,
  runId: number,
  mark: number,
): Promise<void> {
  await client.query("DELETE FROM triage_pending WHERE run_id = $1 AND mark = $2", [runId, mark]);
}

/** Whether the run waits for triage (a read's check: one key, usually absent). */
export async function isPending(client: pg.ClientBase | pg.Pool, runId: number): Promise<boolean> {
  const { rowCount } = await client.query("SELECT 1 FROM triage_pending WHERE run_id = $1", [
    runId,
  ]);
  return (rowCount ?? 0) > 0;
}

/** Runs marked at least `olderThanMs` ago, oldest run first (first seen stays right). */
export async function pendingRunIds(
  client: pg.ClientBase | pg.Pool,
  olderThanMs: number,
): Promise<number[]> {
  const { rows } = await client.query<{ run_id: number }>(
    `SELECT run_id::float8 AS run_id FROM triage_pending
     WHERE marked_at <= now() - make_interval(secs => $1::float8 / 1000)
     ORDER BY run_id`,
    [olderThanMs],
  );
  return rows.map((row) => row.run_id);
}
