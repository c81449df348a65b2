import type pg from "pg";

/*
 * pending_objects (migration 0070): the keys of objects stored ahead of the row that names them.
 * A key is recorded (and committed) before its object is written, and settled (its record
 * deleted) in the transaction that commits the referencing row; what stays is an orphan.
 */

/** Records keys as pending, in a statement of their own: committed before any byte is stored. */
export async function recordPending(pool: pg.Pool, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await pool.query("INSERT INTO pending_objects (object_key) SELECT unnest($1::text[])", [keys]);
}

/**
 * Deletes the keys' records inside the caller's transaction (the one that commits the rows
 * naming them); returns how many there were. The deleted rows stay locked until that transaction
 * ends, so a sweep running meanwhile skips them; if it rolls back they are pending again.
 */
export async function settlePending(
  client: pg.PoolClient,
  keys: readonly string[],
): Promise<number> {
  if (keys.length === 0) return 0;
  const { rowCount } = await client.query(
    "DELETE FROM pending_objects WHERE object_key = ANY($1::text[])",
    [keys],
  );
  return rowCount ?? 0;
}

/** Forgets keys whose objects were deleted again (an upload that did not need them). */
export async function forgetPending(pool: pg.Pool, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await pool.query("DELETE FROM pending_objects WHERE object_key = ANY($1::text[])", [keys]);
}

/**
 * Up to `limit` keys recorded more than `graceSeconds` ago, locked for the caller's
 * transaction. Records an upload in progress has already settled are locked by it and skipped.
 */
export async function claimExpiredPending(
  client: pg.PoolClient,
  graceSeconds: number,
  limit: number,
): Promise<string[]> {
  const { rows } = await client.query<{ object_key: string }>(
    `SELECT object_key FROM pending_objects
     WHERE created_at < now() - make_interval(secs => $1)
     ORDER BY created_at
     LIMIT $2
     FOR UPDATE SKIP LOCKED`,
    [graceSeconds, limit],
  );
  return rows.map((r) => r.object_key);
}

/**
 * Which of the keys a committed row names: an attachment, or a run's Locust report
 * (runs.report_location is /v1/objects/<key>). Read only when records expired (after a crash),
 * so the scans of attachments this may take are rare.
 */
export async function referencedKeys(
  client: pg.PoolClient,
  keys: readonly string[],
): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const { rows } = await client.query<{ object_key: string }>(
    `SELECT object_key FROM attachments WHERE object_key = ANY($1::text[])
     UNION
     SELECT substr(report_location, length('/v1/objects/') + 1) FROM runs
     WHERE report_location = ANY(SELECT '/v1/objects/' || k FROM unnest($1::text[]) AS k)`,
    [keys],
  );
  return new Set(rows.map((r) => r.object_key));
}

/** Deletes the claimed records, inside the sweep's transaction. */
export async function deletePending(client: pg.PoolClient, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await client.query("DELETE FROM pending_objects WHERE object_key = ANY($1::text[])", [keys]);
}
