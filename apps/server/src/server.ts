import type { FastifyInstance } from "fastify";
import type { Logger } from "pino";
import { buildApp } from "./app.js";
import type { Config } from "./config.js";
import { assertDurable, openDatabase } from "./db/database.js";
import { migrate } from "./db/migrate.js";
import type { Db } from "./db/pool.js";
import { createObjectStore } from "./storage/index.js";

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  /** Which database it uses, for the start-up line. */
  database: string;
  /** Stops taking connections, finishes in-flight requests, then closes the database. */
  close(): Promise<void>;
}

/**
 * Opens the database (embedded unless DATABASE_URL is set), applies pending migrations, opens
 * the object store and starts listening. Whatever was started is stopped again if a later step
 * fails, so nothing is left half-way.
 */
export async function startServer(config: Config, log: Logger): Promise<RunningServer> {
  const database = await openDatabase(config, log);
  let app: FastifyInstance | undefined;
  try {
    await assertDurable(database.db.pool);
    const applied = await migrate(database.db.pool);
    if (applied.length > 0) log.info({ applied }, "applied database migrations");
    const objects = await createObjectStore(config, log);
    app = await buildApp({ config, db: database.db, logger: log, objects });
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await app?.close().catch(() => undefined);
    await database.close().catch(() => undefined);
    throw error;
  }
  const shownHost = ["0.0.0.0", "::", "127.0.0.1", "::1"].includes(config.host)
    ? "localhost"
    : config.host;
  const running = app;
  return {
    app: running,
    url: `http://${shownHost}:${config.port}`,
    database: database.description,
    close: async () => {
      await running.close();
      await database.close();
    },
  };
}

/** Applies pending migrations and stops: `assay migrate`. */
export async function migrateDatabase(config: Config, log: Logger): Promise<number[]> {
  const database = await openDatabase(config, log);
  try {
    return await migrate(database.db.pool);
  } finally {
    await database.close();
  }
}

/**
 * Runs `fn` on the database for a CLI command: the embedded cluster of a running server is
 * shared (or started for the command and stopped after); pending migrations are applied first.
 */
export async function withDatabase<T>(
  config: Config,
  log: Logger,
  fn: (db: Db) => Promise<T>,
): Promise<T> {
  const database = await openDatabase(config, log);
  try {
    await migrate(database.db.pool);
    return await fn(database.db);
  } finally {
    await database.close();
  }
}
