import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type pg from "pg";
import type { FlakySettings } from "../../config-flaky.js";
import type { Db } from "../../db/pool.js";
import type { Jobs } from "../../jobs/jobs.js";
import { startFlakyBackfill } from "./flaky.jobs.js";
import { flakyRoutes } from "./flaky.routes.js";
import { recordRunOutcomes } from "./stats.service.js";

type RunStored = (client: pg.PoolClient, runId: number) => Promise<void>;

/**
 * Ingest's hook with flaky's step after `before` (triage's): both in the transaction that stores
 * the run, so an acknowledged run is counted.
 */
export function withFlakyStep(settings: FlakySettings, before: RunStored): RunStored {
  return async (client, runId) => {
    await before(client, runId);
    await recordRunOutcomes(client, runId, settings);
  };
}

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
