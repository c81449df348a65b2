import type { FastifyInstance } from "fastify";
import { runsWorkers, type AppDeps } from "../../app-deps.js";
import { startTriageBackfill } from "./triage.jobs.js";
import { triageRoutes } from "./triage.routes.js";

/**
 * Triage in the app: its routes and the backfill of runs stored before fingerprints existed.
 * New runs are fingerprinted in their upload's transaction (ingest's onRunStored, app.ts).
 */
export async function registerTriage(
  app: FastifyInstance,
  deps: AppDeps,
  settings: { similarity: number },
): Promise<void> {
  await app.register(triageRoutes(deps.db));
  if (runsWorkers(deps))
    await startTriageBackfill(deps.jobs, { db: deps.db, settings, log: deps.logger });
}
