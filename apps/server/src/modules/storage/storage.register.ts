import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { Db } from "../../db/pool.js";
import type { Jobs } from "../../jobs/jobs.js";
import { startPartitionUpkeep } from "./storage.jobs.js";

/** What storage needs of the app's dependencies (app.ts's AppDeps). */
export interface StorageDeps {
  db: Db;
  jobs: Jobs;
  logger: FastifyBaseLogger;
  startWorkers?: boolean;
}

/**
 * The storage module's wiring: results' monthly partitions made ahead by a daily, leased job when
 * this app runs job handlers. It has no routes yet; the app is taken for the same call shape as
 * the other modules' register functions.
 */
export async function registerStorage(_app: FastifyInstance, deps: StorageDeps): Promise<void> {
  if (deps.startWorkers !== false)
    await startPartitionUpkeep(deps.jobs, { db: deps.db, log: deps.logger });
}
