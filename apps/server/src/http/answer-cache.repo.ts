import { sql } from "kysely";
import type { Db } from "../db/pool.js";

/**
 * The database's current snapshot as text (xmin:xmax:in-progress ids, cluster-wide). It changes
 * whenever any transaction that wrote ends, and two statements that see the same snapshot see
 * the same data: the version of every kept answer (answer-cache.ts).
 */
export async function readSnapshot(db: Db): Promise<string> {
  const { rows } = await sql<{
    snapshot: string;
  }>`SELECT pg_current_snapshot()::text AS snapshot`.execute(db.kysely);
  return rows[0]!.snapshot;
}
