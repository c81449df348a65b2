import type pg from "pg";

/** A pool or a client in a transaction: batches run on either. */
type Queryable = Pick<pg.Pool | pg.PoolClient, "query">;
import { withTransaction, type Db } from "../../db/pool.js";

/**
 * Retention passes (retention_passes): at most one runs at a time (a unique index over the
 * running row). Its owner renews its lease between batches, by the database's clock; a pass whose
 * lease ran out is marked abandoned by the next claim, and its owner, finding the lease gone,
 * stops at its next batch.
 */

export type PassTrigger = "nightly" | "cli" | "demo";

export interface PassTotals {
  runs: number;
  results: number;
  stepsTrimmed: number;
  attachments: number;
  apiRequests: number;
  partitions: string[];
  /** Months emptied in part whose kept rows were copied into a new partition (disk returned). */
  rewritten?: string[];
}

export interface PassRow {
  id: number;
  owner: string;
  trigger: PassTrigger;
  state: "running" | "finished" | "failed" | "abandoned";
  started_at: Date;
  finished_at: Date | null;
  removed: Partial<PassTotals>;
  database_bytes_before: number | null;
  database_bytes_after: number | null;
  bytes_freed: number;
  object_bytes_freed: number;
  message: string | null;
}

const UNIQUE_VIOLATION = "23505";

/** Starts a pass owned by `owner`; null when another pass holds a live lease. */
export async function claimPass(
  db: Db,
  owner: string,
  trigger: PassTrigger,
  leaseMs: number,
): Promise<number | null> {
  try {
    return await withTransaction(db, async (client) => {
      await client.query(
        `UPDATE retention_passes
         SET state = 'abandoned', finished_at = now(),
             message = 'stopped: its owner did not renew its lease (server stopped or killed)'
         WHERE state = 'running' AND lease_until < now()`,
      );
      const { rows } = await client.query<{ id: number }>(
        `INSERT INTO retention_passes (owner, trigger, lease_until)
         VALUES ($1, $2, now() + make_interval(secs => $3 / 1000.0))
         RETURNING id::float8 AS id`,
        [owner, trigger, leaseMs],
      );
      return rows[0]!.id;
    });
  } catch (error) {
    if ((error as { code?: string }).code === UNIQUE_VIOLATION) return null;
    throw error;
  }
}

/** Renews the lease; false when the pass is no longer this owner's running pass. */
export async function renewLease(
  client: Queryable,
  id: number,
  owner: string,
  leaseMs: number,
): Promise<boolean> {
  const { rowCount } = await client.query(
    `UPDATE retention_passes SET lease_until = now() + make_interval(secs => $3 / 1000.0)
     WHERE id = $1 AND owner = $2 AND state = 'running' AND lease_until >= now()`,
    [id, owner, leaseMs],
  );
  return rowCount === 1;
}

export interface PassEnd {
  state: "finished" | "failed";
  removed: PassTotals;
  databaseBytesBefore: number;
  databaseBytesAfter: number | null;
  bytesFreed: number;
  objectBytesFreed: number;
  message: string | null;
}

export async function endPass(db: Db, id: number, owner: string, end: PassEnd): Promise<void> {
  await db.pool.query(
    `UPDATE retention_passes
     SET state = $3, finished_at = now(), removed = $4, database_bytes_before = $5,
         database_bytes_after = $6, bytes_freed = $7, object_bytes_freed = $8, message = $9
     WHERE id = $1 AND owner = $2 AND state = 'running'`,
    [
      id,
      owner,
      end.state,
      JSON.stringify(end.removed),
      Math.round(end.databaseBytesBefore),
      end.databaseBytesAfter === null ? null : Math.round(end.databaseBytesAfter),
      Math.round(end.bytesFreed),
      Math.round(end.objectBytesFreed),
      end.message,
    ],
  );
}

const COLUMNS = `id::float8 AS id, owner, trigger, state, started_at, finished_at, removed,
  database_bytes_before::float8 AS database_bytes_before,
  database_bytes_after::float8 AS database_bytes_after, bytes_freed::float8 AS bytes_freed,
  object_bytes_freed::float8 AS object_bytes_freed, message`;

/** The latest pass (running or ended), or null before the first. */
export async function latestPass(db: Db): Promise<PassRow | null> {
  const { rows } = await db.pool.query<PassRow>(
    `SELECT ${COLUMNS} FROM retention_passes ORDER BY started_at DESC, id DESC LIMIT 1`,
  );
  return rows[0] ?? null;
}

/** The latest pass that ended (finished or failed). */
export async function latestEndedPass(db: Db): Promise<PassRow | null> {
  const { rows } = await db.pool.query<PassRow>(
    `SELECT ${COLUMNS} FROM retention_passes WHERE state IN ('finished', 'failed')
     ORDER BY started_at DESC, id DESC LIMIT 1`,
  );
  return rows[0] ?? null;
}
