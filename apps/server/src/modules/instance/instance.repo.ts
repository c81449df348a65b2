import type { Db } from "../../db/pool.js";

/**
 * The one row of `instance` (migrations/0003_instance.sql), read and written with plain SQL on
 * the pool: two columns of one row need no query builder.
 */

export interface InstanceRow {
  demo: boolean;
  demo_loaded_at: Date | null;
}

/** The row; should it be missing, the data is not demo data. */
export async function readInstance(db: Db): Promise<InstanceRow> {
  const { rows } = await db.pool.query<InstanceRow>(
    "SELECT demo, demo_loaded_at FROM instance LIMIT 1",
  );
  return rows[0] ?? { demo: false, demo_loaded_at: null };
}

/** Marks the data as demo data, with the time the load completed (null while it runs). */
export async function setDemo(db: Db, loadedAt: Date | null): Promise<void> {
  await db.pool.query("UPDATE instance SET demo = true, demo_loaded_at = $1", [loadedAt]);
}
