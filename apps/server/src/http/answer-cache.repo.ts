import type pg from "pg";

/**
 * The database's current snapshot as text (xmin:xmax:in-progress ids, cluster-wide). It changes
 * whenever any transaction that wrote ends, and two statements that see the same snapshot see
 * the same data: the version of every kept answer (answer-cache.ts).
 */
export async function readSnapshot(pool: pg.Pool): Promise<string> {
  const { rows } = await pool.query<{ snapshot: string }>(
    "SELECT pg_current_snapshot()::text AS snapshot",
  );
  return rows[0]!.snapshot;
}
