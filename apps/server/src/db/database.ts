import path from "node:path";
import pg from "pg";
import type { Logger } from "pino";
import type { Config } from "../config.js";
import { startEmbeddedPostgres } from "./embedded-postgres.js";
import { createDb, type Db } from "./pool.js";

export const EMBEDDED_DATABASE_NAME = "assay";

export interface OpenDatabase {
  db: Db;
  /** "embedded" or the external server's host, for the start-up line. */
  description: string;
  /** Closes the pool, then stops the embedded PostgreSQL if there is one. */
  close(): Promise<void>;
}

async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (!rowCount) await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
}

/**
 * An acknowledged write must survive a crash, so a server configured to lose commits is refused
 * (see docs/architecture.md, "Durability").
 */
export async function assertDurable(pool: pg.Pool): Promise<void> {
  const off: string[] = [];
  for (const setting of ["fsync", "synchronous_commit", "full_page_writes"]) {
    const { rows } = await pool.query<Record<string, string>>(`SHOW ${setting}`);
    if (rows[0]?.[setting] === "off") off.push(setting);
  }
  if (off.length > 0) {
    throw new Error(
      `PostgreSQL has ${off.join(", ")} off: acknowledged results could be lost in a crash. Turn them on.`,
    );
  }
}

/** DATABASE_URL when set, otherwise the embedded PostgreSQL under ASSAY_DATA_DIR/postgres. */
export async function openDatabase(config: Config, log: Logger): Promise<OpenDatabase> {
  if (config.databaseUrl) {
    const db = createDb(config.databaseUrl, config.dbPoolSize);
    const host = new URL(config.databaseUrl).host;
    return { db, description: `external PostgreSQL at ${host}`, close: () => db.close() };
  }
  const embedded = await startEmbeddedPostgres(path.join(config.dataDir, "postgres"), log);
  try {
    await ensureDatabase(embedded.adminUrl, EMBEDDED_DATABASE_NAME);
  } catch (error) {
    await embedded.stop();
    throw error;
  }
  const db = createDb(embedded.urlFor(EMBEDDED_DATABASE_NAME), config.dbPoolSize);
  return {
    db,
    description: `embedded PostgreSQL (data in ${path.join(config.dataDir, "postgres")})`,
    close: async () => {
      await db.close();
      await embedded.stop();
    },
  };
}
