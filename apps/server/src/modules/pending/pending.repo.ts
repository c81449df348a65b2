import type pg from "pg";

/**
 * A run's work after the commit that stored it (migrations 0223, 0224): one row per run and kind,
 * marked by the run's upload's transaction, removed by the transaction that did the work
 * (pending.service.ts).
 */

/** What a row waits for: a module's step on the run. */
export type PendingKind = "triage" | "flaky";

/** Marks the run in its upload's transaction; answers the new mark. */
export async function markPending(
  client: pg.ClientBase,
  kind: PendingKind,
  runId: number,
): Promise<number> {
  const { rows } = await client.query<{ mark: number }>(
    `INSERT INTO run_pending (kind, run_id) VALUES ($1, $2)
     ON CONFLICT (kind, run_id) DO UPDATE SET mark = excluded.mark, marked_at = excluded.marked_at
     RETURNING mark::float8 AS mark`,
    [kind, runId],
  );
  return rows[0]!.mark;
}

/**
 * Takes the run's mark for this transaction (the lock is the work's lease): waits for a peer
 * doing it, or with `skipLocked` leaves it to that peer. Null: nothing to do (not marked, done
 * meanwhile, or another's).
 */
export async function lockPending(
  client: pg.ClientBase,
  kind: PendingKind,
  runId: number,
  skipLocked = false,
): Promise<number | null> {
  const { rows } = await client.query<{ mark: number }>(
    `SELECT mark::float8 AS mark FROM run_pending WHERE kind = $1 AND run_id = $2
     FOR UPDATE${skipLocked ? " SKIP LOCKED" : ""}`,
    [kind, runId],
  );
  return rows[0]?.mark ?? null;
}

/** Done up to `mark`: a later upload's mark stays. */
export async function clearPending(
  client: pg.ClientBase,
  kind: PendingKind,
  runId: number,
  mark: number,
): Promise<void> {
  await client.query("DELETE FROM run_pending WHERE kind = $1 AND run_id = $2 AND mark = $3", [
    kind,
    runId,
    mark,
  ]);
}

/** Whether the run waits (a read's check: one key, usually absent). */
export async function isPending(
  client: pg.ClientBase | pg.Pool,
  kind: PendingKind,
  runId: number,
): Promise<boolean> {
  const { rowCount } = await client.query(
    "SELECT 1 FROM run_pending WHERE kind = $1 AND run_id = $2",
    [kind, runId],
  );
  return (rowCount ?? 0) > 0;
}

/** Runs marked at least `olderThanMs` ago, oldest run first (first seen stays right). */
export async function pendingRunIds(
  client: pg.ClientBase | pg.Pool,
  kind: PendingKind,
  olderThanMs: number,
): Promise<number[]> {
  const { rows } = await client.query<{ run_id: number }>(
    `SELECT run_id::float8 AS run_id FROM run_pending
     WHERE kind = $1 AND marked_at <= now() - make_interval(secs => $2::float8 / 1000)
     ORDER BY run_id`,
    [kind, olderThanMs],
  );
  return rows.map((row) => row.run_id);
}

/** Of `runIds`, those marked (a backfill leaves them to the after-commit step or the sweep). */
export async function markedRunIds(
  client: pg.ClientBase,
  kind: PendingKind,
  runIds: readonly number[],
): Promise<Set<number>> {
  const { rows } = await client.query<{ run_id: number }>(
    `SELECT run_id::float8 AS run_id FROM run_pending WHERE kind = $1 AND run_id = ANY($2::bigint[])`,
    [kind, runIds],
  );
  return new Set(rows.map((row) => row.run_id));
}

/** Forgets every mark of a kind (a module that derives everything again: the demo's recount). */
export async function forgetPending(client: pg.ClientBase, kind: PendingKind): Promise<void> {
  await client.query("DELETE FROM run_pending WHERE kind = $1", [kind]);
}
