import type { FastifyInstance } from "fastify";
import type { Logger } from "pino";
import { buildApp } from "./app.js";
import type { AppDeps } from "./app-deps.js";
import type { Config } from "./config.js";
import { assertDurable, openDatabase } from "./db/database.js";
import { migrate } from "./db/migrate.js";
import type { Db } from "./db/pool.js";
import { shouldLoadDemo, startDemoLoad } from "./demo/demo-startup.js";
import { startDemoTrackers, type DemoTrackers } from "./demo/demo-trackers.js";
import { createTrackers } from "./modules/integrations/integrations.service.js";
import { Jobs } from "./jobs/jobs.js";
import { removeDeadSpools } from "./modules/ingest/worker/spool.js";
import { createObjectStore, type ObjectStore } from "./storage/index.js";
import { ensureFirstAdmin, type FirstAdmin } from "./modules/users/users.service.js";
import { loadSigningKeys } from "./modules/identity/keys.js";
import { loadSecretKey } from "./secret-key.js";

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  /** Which database it uses, for the start-up line. */
  database: string;
  /**
   * The admin made on this start because the embedded provider had no users; the CLI prints it
   * (with a generated password, once) to stdout, never to the log.
   */
  firstAdmin: FirstAdmin | undefined;
  /** Stops taking connections, finishes in-flight requests, then closes the database. */
  close(): Promise<void>;
}

/**
 * Opens the database (embedded unless DATABASE_URL is set), applies pending migrations, opens
 * the object store and starts listening. Whatever was started is stopped again if a later step
 * fails, so nothing is left half-way.
 */
export async function startServer(
  config: Config,
  log: Logger,
  /** AppDeps' switches a bench's server sets (server-entry.ts); none in production. */
  switches: Pick<AppDeps, "triage"> = {},
): Promise<RunningServer> {
  const database = await openDatabase(config, log);
  let app: FastifyInstance | undefined;
  let jobs: Jobs | undefined;
  let objects: ObjectStore;
  let firstAdmin: FirstAdmin | undefined;
  let demoTrackers: DemoTrackers | undefined;
  let secret: Buffer;
  let started = false;
  try {
    await assertDurable(database.db.pool);
    const applied = await migrate(database.db.pool, undefined, (message) => log.info(message));
    if (applied.length > 0) log.info({ applied }, "applied database migrations");
    // Read once for the whole start: the provider's keys, the app and the demo's app use it.
    secret = loadSecretKey(config);
    // The embedded provider's keys: made on the first start; another secret key stops here.
    if (!config.oidcIssuer) await loadSigningKeys(database.db.kysely, secret);
    objects = await createObjectStore(config, log);
    const spools = await removeDeadSpools();
    if (spools > 0) log.warn({ spools }, "removed upload spool folders of a killed Assay process");
    jobs = await Jobs.start(database.db.pool, log);
    // The demo's Jira and Spira stand in for those not configured (demo-trackers.ts).
    if (shouldLoadDemo(config) && (!config.integrations.jira || !config.integrations.spira))
      demoTrackers = await startDemoTrackers(config.integrations);
    const trackers = demoTrackers
      ? createTrackers(demoTrackers.config, demoTrackers.demo)
      : undefined;
    app = await buildApp({
      config,
      db: database.db,
      logger: log,
      objects,
      jobs,
      trackers,
      secret,
      started: () => started,
      ...switches,
    });
    await app.listen({ port: config.port, host: config.host });
    // After listen: a start that fails earlier must not make an admin whose password nobody saw.
    if (!config.oidcIssuer) firstAdmin = await ensureFirstAdmin(database.db.kysely, config);
    started = true;
  } catch (error) {
    await app?.close().catch(() => undefined);
    await jobs?.stop().catch(() => undefined);
    await demoTrackers?.stop().catch(() => undefined);
    await database.close().catch(() => undefined);
    throw error;
  }
  const shownHost = ["0.0.0.0", "::", "127.0.0.1", "::1"].includes(config.host)
    ? "localhost"
    : config.host;
  const running = app;
  const runningJobs = jobs;
  // In the background, after listen: the start-up line does not wait for the demo data.
  const demo = shouldLoadDemo(config)
    ? startDemoLoad({ config, db: database.db, objects, jobs: runningJobs, log, secret })
    : undefined;
  return {
    app: running,
    url: `http://${shownHost}:${config.port}`,
    database: database.description,
    firstAdmin,
    close: async () => {
      await demo?.stop();
      await running.close();
      // After the HTTP server: a request in flight may still queue a job.
      await runningJobs.stop();
      await demoTrackers?.stop();
      await database.close();
    },
  };
}

/** Applies pending migrations and stops: `assay migrate`. */
export async function migrateDatabase(config: Config, log: Logger): Promise<number[]> {
  const database = await openDatabase(config, log);
  try {
    return await migrate(database.db.pool, undefined, (message) => log.info(message));
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
