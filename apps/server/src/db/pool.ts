import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import type { Database } from "./schema.js";

export interface Db {
  pool: pg.Pool;
  /** Typed queries; repos are the only files that use it (STYLE.md rule 2). */
  kysely: Kysely<Database>;
  close(): Promise<void>;
}

/**
 * One pool for the process. Timeouts are bounded so a stuck database answers 503 instead of
 * hanging requests; the same code serves the embedded and an external PostgreSQL.
 */
export function createDb(connectionString: string, max: number): Db {
  const pool = new pg.Pool({
    connectionString,
    max,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    statement_timeout: 60_000,
    application_name: "assay",
  });
  // An idle client can lose its connection (database restart); the pool replaces it.
  pool.on("error", () => undefined);
  // A client checked out of the pool has no listener of the pool's (pg-pool removes it until
  // release): a connection lost then (a backend killed mid-COPY, PostgreSQL restarting) was an
  // unhandled 'error' event, which ended the whole server (found by the PostgreSQL crash
  // campaign). Its query fails instead and the request is answered 503; on release the pool
  // drops the client, which is no longer queryable.
  pool.on("connect", (client) => client.on("error", () => undefined));
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    pool,
    kysely,
    close: async () => {
      // Kysely ends the pool only if it ever used it; raw pool users are common (migrations).
      await kysely.destroy();
      if (!pool.ended) await pool.end();
    },
  };
}

/** Runs `fn` on one client inside BEGIN/COMMIT; ROLLBACK if it throws. */
export async function withTransaction<T>(
  db: Db,
  fn: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await db.pool.connect();
  try {
    await client.query("BEGIN");
    const result = await fn(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * A small pool of its own on the same database, for statements that must commit apart from a
 * transaction their caller holds on the main pool (the pending object records of an upload):
 * waiting on the main pool for a second connection could deadlock once every connection is held
 * by such a caller.
 */
export function createSidePool(db: Db, max: number, name: string): pg.Pool {
  const pool = new pg.Pool({ ...db.pool.options, max, application_name: name });
  pool.on("error", () => undefined);
  // As on the main pool: a connection lost while checked out fails its query, not the server.
  pool.on("connect", (client) => client.on("error", () => undefined));
  return pool;
}
