import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { FlakySettings } from "../../config-flaky.js";
import type { Db } from "../../db/pool.js";
import type { Jobs } from "../../jobs/jobs.js";
import { startFlakyBackfill } from "./flaky.jobs.js";
import { flakyRoutes } from "./flaky.routes.js";

/** What flaky needs of the app's dependencies (app.ts's AppDeps). */
export interface FlakyDeps {
  config: { flaky: FlakySettings };
  db: Db;
  jobs: Jobs;
  logger: FastifyBaseLogger;
  startWorkers?: boolean;
}

/** Flaky's routes, and its backfill when this app runs job handlers. */
export async function registerFlaky(app: FastifyInstance, deps: FlakyDeps): Promise<void> {
  const settings = deps.config.flaky;
  await app.register(flakyRoutes(deps.db, settings));
  if (deps.startWorkers !== false)
    await startFlakyBackfill(deps.jobs, { db: deps.db, settings, log: deps.logger });
}
