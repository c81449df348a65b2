import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { FlakySettings } from "../../config-flaky.js";
import type { Db } from "../../db/pool.js";
import type { Jobs } from "../../jobs/jobs.js";
import type { TriageDeps } from "../triage/pending.service.js";
import { startFlakyBackfill, startFlakySweep } from "./flaky.jobs.js";
import { flakyRoutes } from "./flaky.routes.js";

/** What flaky needs of the app's dependencies (app.ts's AppDeps). */
export interface FlakyDeps {
  config: { flaky: FlakySettings };
  db: Db;
  jobs: Jobs;
  logger: FastifyBaseLogger;
  startWorkers?: boolean;
}

/**
 * Flaky's routes, and when this app runs job handlers the sweep of runs left uncounted by a
 * server that died after their commit, and the backfill. New runs are marked in their upload's
 * transaction and counted after its commit (ingest's onRunStored, app.ts; modules/pending).
 */
export async function registerFlaky(
  app: FastifyInstance,
  deps: FlakyDeps,
  triage: TriageDeps,
): Promise<void> {
  const counting = { db: deps.db, settings: deps.config.flaky, log: deps.logger };
  await app.register(flakyRoutes(deps.db, counting.settings, triage));
  if (deps.startWorkers === false) return;
  await startFlakySweep(deps.jobs, counting);
  await startFlakyBackfill(deps.jobs, counting);
}
