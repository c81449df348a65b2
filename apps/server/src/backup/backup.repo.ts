import type { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type pg from "pg";
import { from as copyFrom, to as copyTo } from "pg-copy-streams";

/**
 * The SQL of `assay backup` and `assay restore`. They read and write every table of Assay's
 * schema, whoever owns it, the way pg_dump does: the owners' SQL never sees a backup, and a
 * table added by a later migration is backed up without a change here.
 */

export interface TableInfo {
  name: string;
  /** Stored columns in order; generated columns are left out (PostgreSQL recomputes them). */
  columns: string[];
  /** Tables this one references by foreign key (itself excluded). */
  references: string[];
}

/** Kept by the migrations themselves (restore runs them), not copied. */
const NOT_COPIED = new Set(["schema_migrations"]);

/** Ordinary tables of the public schema, each after the tables it references. */
export async function listTables(client: pg.ClientBase): Promise<TableInfo[]> {
  const { rows } = await client.query<{ name: string; columns: string[]; refs: string[] }>(
    `SELECT c.relname AS name,
            array(SELECT a.attname::text FROM pg_attribute a
                   WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
                     AND a.attgenerated = ''
                   ORDER BY a.attnum) AS columns,
            array(SELECT DISTINCT f.confrelid::regclass::text FROM pg_constraint f
                   WHERE f.conrelid = c.oid AND f.contype = 'f' AND f.confrelid <> c.oid) AS refs
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition
      ORDER BY c.relname`,
  );
  const tables = rows
    .filter((r) => !NOT_COPIED.has(r.name))
    .map((r) => ({ name: r.name, columns: r.columns, references: r.refs }));
  return inDependencyOrder(tables);
}

/** Referenced tables first, so that a restore can load them one after another. */
function inDependencyOrder(tables: TableInfo[]): TableInfo[] {
  const byName = new Map(tables.map((t) => [t.name, t]));
  const done = new Set<string>();
  const ordered: TableInfo[] = [];
  const visit = (table: TableInfo, path: string[]) => {
    if (done.has(table.name)) return;
    if (path.includes(table.name)) {
      throw new Error(`foreign keys form a cycle: ${[...path, table.name].join(" -> ")}`);
    }
    for (const ref of table.references) {
      const target = byName.get(ref);
      if (target) visit(target, [...path, table.name]);
    }
    done.add(table.name);
    ordered.push(table);
  };
  for (const table of tables) visit(table, []);
  return ordered;
}

const ident = (client: pg.ClientBase, name: string) => client.escapeIdentifier(name);
const columnList = (client: pg.ClientBase, columns: readonly string[]) =>
  columns.map((c) => ident(client, c)).join(", ");

/**
 * Opens the snapshot every table is read from: one transaction, so that the archive is
 * consistent while the server keeps serving and ingesting (nothing is locked but rows' versions).
 */
export async function beginSnapshot(client: pg.ClientBase): Promise<void> {
  await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
  // The pool's 60 s limit is for requests; copying a large table may take longer.
  await client.query("SET LOCAL statement_timeout = 0");
}

/** The restore's one transaction: all tables load, or none. */
export async function beginLoad(client: pg.ClientBase): Promise<void> {
  await client.query("BEGIN");
  await client.query("SET LOCAL statement_timeout = 0");
}

export async function endTransaction(client: pg.ClientBase, commit: boolean): Promise<void> {
  await client.query(commit ? "COMMIT" : "ROLLBACK");
}

/** The newest migration applied, which the archive's schema is. */
export async function lastMigration(client: pg.ClientBase): Promise<number> {
  const { rows } = await client.query<{ version: number | null }>(
    "SELECT max(version) AS version FROM schema_migrations",
  );
  return rows[0]?.version ?? 0;
}

/**
 * The table's rows in PostgreSQL's text COPY format (what pg_dump writes): exact for every type,
 * and loadable into a later schema that added columns.
 */
export async function copyTableOut(
  client: pg.ClientBase,
  table: TableInfo,
  into: Writable,
): Promise<void> {
  // A query, not the table: COPY TO refuses a partitioned table (results, migration 0191).
  const sql = `COPY (SELECT ${columnList(client, table.columns)} FROM ${ident(client, table.name)}) TO STDOUT`;
  await pipeline(client.query(copyTo(sql)), into);
}

export async function copyTableIn(
  client: pg.ClientBase,
  table: string,
  columns: readonly string[],
  from: Readable,
): Promise<void> {
  const sql = `COPY ${ident(client, table)} (${columnList(client, columns)}) FROM STDIN`;
  await pipeline(from, client.query(copyFrom(sql)));
}

export async function countRows(client: pg.ClientBase, table: string): Promise<number> {
  const { rows } = await client.query<{ n: string }>(
    `SELECT count(*) AS n FROM ${ident(client, table)}`,
  );
  return Number(rows[0]?.n ?? 0);
}

/**
 * Rows a restore would overwrite: any row but those the migrations insert themselves (the
 * instance row, the built-in @unstable tag).
 */
export async function tablesWithData(
  client: pg.ClientBase,
  tables: readonly TableInfo[],
): Promise<string[]> {
  const seeded: Record<string, number> = { instance: 1, tags: 1 };
  const busy: string[] = [];
  for (const table of tables) {
    if ((await countRows(client, table.name)) > (seeded[table.name] ?? 0)) busy.push(table.name);
  }
  return busy;
}

/** Empties the tables (the migrations' own rows go too: the archive holds them). */
export async function truncateTables(
  client: pg.ClientBase,
  tables: readonly string[],
): Promise<void> {
  if (tables.length === 0) return;
  await client.query(
    `TRUNCATE ${tables.map((t) => ident(client, t)).join(", ")} RESTART IDENTITY CASCADE`,
  );
}

/**
 * Moves every identity and serial sequence past the highest id restored, so that the next row
 * inserted does not collide with a restored one.
 */
export async function resetSequences(client: pg.ClientBase): Promise<void> {
  const { rows } = await client.query<{ table: string; column: string; seq: string }>(
    `SELECT c.relname AS table, a.attname AS column,
            pg_get_serial_sequence(quote_ident(c.relname), a.attname) AS seq
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
        AND pg_get_serial_sequence(quote_ident(c.relname), a.attname) IS NOT NULL`,
  );
  for (const row of rows) {
    const column = ident(client, row.column);
    await client.query(
      `SELECT setval($1::regclass, coalesce((SELECT max(${column}) FROM ${ident(client, row.table)}), 0) + 1, false)`,
      [row.seq],
    );
  }
}
