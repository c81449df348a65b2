import type { Db } from "../db/pool.js";

/**
 * The demo's stand-ins for MySQL, Redshift and DocumentDB: schemas named dh_demo_* in Assay's
 * own PostgreSQL. Names and sizes are constants of dh-demo.ts, never input.
 */

export async function hasDhDemoSchemas(db: Db, marker: string): Promise<boolean> {
  const { rows } = await db.pool.query<{ present: boolean }>(
    "SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1) AS present",
    [marker],
  );
  return rows[0]?.present ?? false;
}

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** (Re)creates the schemas, each table holding ids 1..rows except its `missing` ones. */
export async function createCountTables(
  db: Db,
  tables: readonly { schema: string; table: string; rows: number; missing?: number[] }[],
): Promise<void> {
  const client = await db.pool.connect();
  try {
    await client.query("BEGIN");
    for (const schema of new Set(tables.map((t) => t.schema))) {
      await client.query(`DROP SCHEMA IF EXISTS ${ident(schema)} CASCADE`);
      await client.query(`CREATE SCHEMA ${ident(schema)}`);
    }
    for (const { schema, table, rows, missing = [] } of tables)
      await client.query(
        `CREATE TABLE ${ident(schema)}.${ident(table)} AS SELECT g AS id FROM generate_series(1, ${Math.trunc(rows)}) g WHERE g <> ALL($1::int[])`,
        [missing],
      );
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  } finally {
    client.release();
  }
}

/** A table of text columns filled with `records` (the SFDC leads' MySQL side). */
export async function createRecordTable(
  db: Db,
  schema: string,
  table: string,
  columns: readonly string[],
  records: readonly Record<string, string>[],
): Promise<void> {
  const client = await db.pool.connect();
  try {
    await client.query("BEGIN");
    await client.query(`DROP SCHEMA IF EXISTS ${ident(schema)} CASCADE`);
    await client.query(`CREATE SCHEMA ${ident(schema)}`);
    await client.query(
      `CREATE TABLE ${ident(schema)}.${ident(table)} (${columns.map((c) => `${ident(c)} text`).join(", ")})`,
    );
    await client.query(
      `INSERT INTO ${ident(schema)}.${ident(table)} SELECT * FROM unnest(${columns.map((_, i) => `$${i + 1}::text[]`).join(", ")})`,
      columns.map((c) => records.map((r) => r[c] ?? null)),
    );
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  } finally {
    client.release();
  }
}
