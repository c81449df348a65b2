import type { CompiledQuery } from "kysely";
import type { Db } from "../src/db/pool.js";

/**
 * The plan PostgreSQL picks for `query` with sequential and bitmap scans off: on a test's tiny
 * tables a scan would win on cost, so without them the plan shows which index the query can use.
 * `before` runs first in the same transaction (e.g. dropping a rival index), which is rolled back.
 */
export async function planWithoutScans(
  db: Db,
  query: Pick<CompiledQuery, "sql" | "parameters">,
  before: readonly string[] = [],
): Promise<string> {
  const client = await db.pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("SET LOCAL enable_seqscan = off");
    await client.query("SET LOCAL enable_bitmapscan = off");
    for (const statement of before) await client.query(statement);
    const { rows } = await client.query<{ "QUERY PLAN": string }>(
      `EXPLAIN ${query.sql}`,
      query.parameters as unknown[],
    );
    return rows.map((row) => row["QUERY PLAN"]).join("\n");
  } finally {
    await client.query("ROLLBACK");
    client.release();
  }
}
