import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type pg from "pg";

/** Plain SQL files, numbered, forward-only: apps/server/migrations/NNNN_name.sql. */
export const MIGRATIONS_DIR = fileURLToPath(new URL("../../migrations/", import.meta.url));

// Any constant works; it only has to be the same for every Assay server on one database.
const MIGRATION_LOCK_KEY = 0x61737361; // "assa"

export interface Migration {
  version: number;
  name: string;
  sql: string;
  checksum: string;
}

export function listMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith(".sql"))
    .sort()
    .map((file) => {
      const match = /^(\d{4})_([a-z0-9_]+)\.sql$/.exec(file);
      if (!match) throw new Error(`migration file name must look like 0001_name.sql: ${file}`);
      const sql = readFileSync(`${dir}/${file}`, "utf8");
      return {
        version: Number(match[1]),
        name: match[2] as string,
        sql,
        checksum: createHash("sha256").update(sql).digest("hex"),
      };
    });
}

/**
 * Applies the migrations not applied yet, each in its own transaction, under a PostgreSQL
 * advisory lock so that two servers starting at once apply each file exactly once. A changed
 * file that was already applied stops the start: merged migrations are never edited.
 * Returns the versions it applied; `say` hears what a migration reports while it runs.
 */
export async function migrate(
  pool: pg.Pool,
  migrations = listMigrations(),
  say: (message: string) => void = () => undefined,
): Promise<number[]> {
  const client = await pool.connect();
  // A long migration says how long it will take and how far it is (RAISE NOTICE).
  const notice = (message: { message?: string }) => say(message.message ?? "");
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const { rows } = await client.query<{ version: number; checksum: string }>(
      "SELECT version, checksum FROM schema_migrations",
    );
    const applied = new Map(rows.map((r) => [r.version, r.checksum]));
    const done: number[] = [];
    for (const m of migrations) {
      const checksum = applied.get(m.version);
      if (checksum !== undefined) {
        if (checksum !== m.checksum) {
          throw new Error(
            `migration ${m.version}_${m.name} changed after it was applied; add a new migration instead`,
          );
        }
        continue;
      }
      await client.query("BEGIN");
      try {
        client.on("notice", notice);
        await client.query(m.sql).finally(() => client.off("notice", notice));
        await client.query(
          "INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)",
          [m.version, m.name, m.checksum],
        );
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw new Error(`migration ${m.version}_${m.name} failed: ${(error as Error).message}`, {
          cause: error,
        });
      }
      done.push(m.version);
    }
    return done;
  } finally {
    await client
      .query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY])
      .catch(() => undefined);
    client.release();
  }
}

/** How many migrations the database has, and whether that is all of them. */
export async function migrationStatus(
  pool: pg.Pool,
  expected = listMigrations().length,
): Promise<{ applied: number; complete: boolean }> {
  const { rows: table } = await pool.query<{ exists: boolean }>(
    "SELECT to_regclass('schema_migrations') IS NOT NULL AS exists",
  );
  if (!table[0]?.exists) return { applied: 0, complete: expected === 0 };
  const { rows } = await pool.query<{ applied: number }>(
    "SELECT count(*)::int AS applied FROM schema_migrations",
  );
  const applied = rows[0]?.applied ?? 0;
  return { applied, complete: applied >= expected };
}
