import { createHash } from "node:crypto";
import type { Compilable } from "kysely";
import type { Db } from "./pool.js";

/*
 * Hot reads across results' monthly partitions spend most of their time in the planner: a
 * test's history plans an index probe of each month's partition (27 in the 10M store) twice,
 * ~4 ms, for a 0.4 ms execution (docs/performance.md, "Session 38: reads at 10M on today's
 * layout, planned once"). Run as a named
 * prepared statement, PostgreSQL plans it for the first five calls on a connection and then
 * keeps a generic plan when it costs no more, so later calls skip the planner. Only what varies
 * from call to call may be a parameter: a LIMIT or a flag that picks a partial index must be
 * written into the SQL (Kysely's sql.lit), or the generic plan is made for any value of them
 * (a history's generic plan with `LIMIT $3` took 4 s).
 */

/** Runs `query` as a prepared statement named after its SQL (one per distinct text). */
export async function runPrepared<Row>(db: Db, query: Compilable<Row>): Promise<Row[]> {
  const { sql, parameters } = query.compile();
  const name = `assay_${createHash("sha256").update(sql).digest("hex").slice(0, 24)}`;
  const { rows } = await db.pool.query({ name, text: sql, values: [...parameters] });
  return rows as Row[];
}
