import type pg from "pg";

/** A pool or a client in a transaction. */
type Queryable = Pick<pg.Pool | pg.PoolClient, "query">;

/**
 * The SQL of a month's rewrite (retention.rewrite.ts says when and why): the copy of a
 * partition of results is built under the same name in the retention_rewrite schema (migration
 * 0220), with the partition's indexes under their own names, then moved into public in place of
 * the partition. Writes into the partition meanwhile are logged by the retention_rewrite_log
 * trigger into retention_rewrite_changes and carried over at the swap.
 */

const WORK = "retention_rewrite";
const TRIGGER = "retention_rewrite_log";
const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const work = (name: string) => `${WORK}.${quote(name)}`;

export interface Fill {
  rows: number;
  /** The live rows' own bytes (pg_column_size, their header included) and line pointers. */
  liveBytes: number;
  /** Heap, TOAST, free space and visibility maps (pg_table_size). */
  tableBytes: number;
}

/** How full the partition's table is: one read of its rows. */
export async function measureFill(client: Queryable, name: string): Promise<Fill> {
  const { rows } = await client.query<Fill>(
    `SELECT count(*)::float8 AS rows,
            (coalesce(sum(pg_column_size(r.*)), 0) + 4 * count(*))::float8 AS "liveBytes",
            pg_table_size(to_regclass($1))::float8 AS "tableBytes"
     FROM ${quote(name)} r`,
    [name],
  );
  return rows[0]!;
}

/** The run's created_at, which is its results' run_at (their month); null when it is gone. */
export async function runCreatedAt(client: Queryable, runId: number): Promise<Date | null> {
  const { rows } = await client.query<{ at: Date }>(
    `SELECT created_at AS at FROM runs WHERE id = $1`,
    [runId],
  );
  return rows[0]?.at ?? null;
}

/** What a stopped rewrite left: copies in the work schema, partitions still logging writes. */
export async function leftovers(
  client: Queryable,
): Promise<{ copies: string[]; logging: string[] }> {
  const copies = await client.query<{ name: string }>(
    `SELECT relname AS name FROM pg_class
     WHERE relnamespace = to_regnamespace($1) AND relkind = 'r' ORDER BY 1`,
    [WORK],
  );
  const logging = await client.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
     WHERE t.tgname = $1 ORDER BY 1`,
    [TRIGGER],
  );
  return { copies: copies.rows.map((r) => r.name), logging: logging.rows.map((r) => r.name) };
}

export async function dropCopy(client: Queryable, name: string): Promise<void> {
  await client.query(`DROP TABLE IF EXISTS ${work(name)}`);
}

/**
 * Stops logging the partition's writes and forgets them. DROP TRIGGER locks the partition
 * against reads while it waits: at most `lockTimeoutMs`. Run in a transaction.
 */
export async function stopLogging(client: pg.PoolClient, name: string, lockTimeoutMs: number) {
  await client.query(`SET LOCAL lock_timeout = ${Math.round(lockTimeoutMs)}`);
  await client.query(`DROP TRIGGER IF EXISTS ${TRIGGER} ON ${quote(name)}`);
  await client.query(`DELETE FROM retention_rewrite_changes WHERE partition = $1`, [name]);
}

/** Every logged write is a leftover when no pass is running (the pass's lease says so). */
export async function forgetLoggedWrites(client: Queryable): Promise<void> {
  await client.query(`DELETE FROM retention_rewrite_changes`);
}

/**
 * Logs the partition's writes from now on. CREATE TRIGGER waits for writers under way (and
 * holds new ones while it waits, at most `lockTimeoutMs`), never for readers. Run in a
 * transaction; every write committed after it is logged.
 */
export async function startLogging(client: pg.PoolClient, name: string, lockTimeoutMs: number) {
  await client.query(`SET LOCAL lock_timeout = ${Math.round(lockTimeoutMs)}`);
  await client.query(`DELETE FROM retention_rewrite_changes WHERE partition = $1`, [name]);
  await client.query(
    `CREATE TRIGGER ${TRIGGER} AFTER INSERT OR UPDATE OR DELETE ON ${quote(name)}
     FOR EACH ROW EXECUTE FUNCTION retention_rewrite_log()`,
  );
}

/**
 * The empty copy, shaped like the partition, with a CHECK of the month's bounds: ATTACH then
 * knows the rows fit without reading them. Returns the partition's pages, to copy by ranges.
 */
export async function createCopy(
  client: Queryable,
  name: string,
  bounds: { from: Date; to: Date },
): Promise<number> {
  await client.query(
    `CREATE TABLE ${work(name)} (LIKE ${quote(name)} INCLUDING DEFAULTS INCLUDING CONSTRAINTS
       INCLUDING STORAGE INCLUDING COMPRESSION)`,
  );
  await client.query(
    `ALTER TABLE ${work(name)} ADD CONSTRAINT retention_rewrite_bounds
     CHECK (run_at >= '${bounds.from.toISOString()}'::timestamptz
            AND run_at < '${bounds.to.toISOString()}'::timestamptz)`,
  );
  const { rows } = await client.query<{ pages: number }>(
    `SELECT (pg_relation_size(to_regclass($1)) / current_setting('block_size')::int)::float8 AS pages`,
    [name],
  );
  return rows[0]!.pages;
}

/** Copies the rows of the partition's pages [from, to) (a TID range scan). Run in a transaction. */
export async function copyPages(
  client: pg.PoolClient,
  name: string,
  from: number,
  to: number,
): Promise<number> {
  await client.query(`SET LOCAL statement_timeout = 0`);
  const { rowCount } = await client.query(
    `INSERT INTO ${work(name)} SELECT * FROM ${quote(name)}
     WHERE ctid >= $1::tid AND ctid < $2::tid`,
    [`(${from},0)`, `(${to},0)`],
  );
  return rowCount ?? 0;
}

/**
 * Removes from the copy the rows written to since logging began: a row updated between two
 * ranges may have been copied twice. The swap copies their last version.
 */
export async function dropLoggedRows(client: Queryable, name: string): Promise<void> {
  await client.query(
    `DELETE FROM ${work(name)}
     WHERE id IN (SELECT result_id FROM retention_rewrite_changes WHERE partition = $1)`,
    [name],
  );
}

/** Ids written to since logging began. */
export async function loggedWrites(client: Queryable, name: string): Promise<number> {
  const { rows } = await client.query<{ n: number }>(
    `SELECT count(DISTINCT result_id)::float8 AS n FROM retention_rewrite_changes
     WHERE partition = $1`,
    [name],
  );
  return rows[0]!.n;
}

/** The statements that give the copy the partition's indexes, under the same names. */
export async function indexStatements(client: Queryable, name: string): Promise<string[]> {
  const { rows } = await client.query<{ def: string; con: string | null; condef: string | null }>(
    `SELECT pg_get_indexdef(x.indexrelid) AS def, c.conname AS con,
            pg_get_constraintdef(c.oid) AS condef
     FROM pg_index x
     LEFT JOIN pg_constraint c ON c.conindid = x.indexrelid AND c.conrelid = x.indrelid
     WHERE x.indrelid = to_regclass($1)
     ORDER BY x.indexrelid`,
    [name],
  );
  return rows.map((row) =>
    row.con !== null
      ? `ALTER TABLE ${work(name)} ADD CONSTRAINT ${quote(row.con)} ${row.condef}`
      : row.def.replace(/ ON (ONLY )?(\S+\.)?\S+ USING /, ` ON ${work(name)} USING `),
  );
}

/** One index built on the copy, however long it takes. Run in a transaction. */
export async function buildIndex(client: pg.PoolClient, statement: string): Promise<void> {
  await client.query(`SET LOCAL statement_timeout = 0`);
  await client.query(statement);
}

/** Visibility map and statistics for the copy before reads meet it. Not in a transaction. */
export async function vacuumCopy(client: pg.PoolClient, name: string): Promise<void> {
  await client.query(`SET statement_timeout = 0`);
  try {
    await client.query(`VACUUM (ANALYZE) ${work(name)}`);
  } finally {
    await client.query(`RESET statement_timeout`);
  }
}

/**
 * Swaps the copy in for the partition, in the caller's transaction: DETACH (waiting at most
 * `lockTimeoutMs` for readers of results), the logged writes carried over, the partition dropped,
 * the copy moved into public and ATTACHed (its CHECK spares the scan), the CHECK dropped.
 * Returns the rows carried over.
 */
export async function swapIn(
  client: pg.PoolClient,
  name: string,
  bounds: { from: Date; to: Date },
  lockTimeoutMs: number,
): Promise<number> {
  await client.query(`SET LOCAL lock_timeout = ${Math.round(lockTimeoutMs)}`);
  // After the storage upkeep's partition making (createMonthPartition takes this lock first),
  // not against it: it locks the default partition, which ATTACH reads, then results.
  await client.query("SELECT pg_advisory_xact_lock(hashtext('results partitions'))");
  await client.query(`ALTER TABLE results DETACH PARTITION ${quote(name)}`);
  const ids = `SELECT DISTINCT result_id FROM retention_rewrite_changes WHERE partition = $1`;
  await client.query(`DELETE FROM ${work(name)} WHERE id IN (${ids})`, [name]);
  const { rowCount } = await client.query(
    `INSERT INTO ${work(name)} SELECT * FROM ${quote(name)} WHERE id IN (${ids})`,
    [name],
  );
  await client.query(`DELETE FROM retention_rewrite_changes WHERE partition = $1`, [name]);
  await client.query(`DROP TABLE ${quote(name)}`);
  await client.query(`ALTER TABLE ${work(name)} SET SCHEMA public`);
  await client.query(
    `ALTER TABLE results ATTACH PARTITION ${quote(name)}
     FOR VALUES FROM ('${bounds.from.toISOString()}') TO ('${bounds.to.toISOString()}')`,
  );
  await client.query(`ALTER TABLE ${quote(name)} DROP CONSTRAINT retention_rewrite_bounds`);
  return rowCount ?? 0;
}
