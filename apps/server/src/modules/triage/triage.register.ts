import type { FastifyInstance } from "fastify";
import { runsWorkers, type AppDeps } from "../../app-deps.js";
import type { TriageDeps } from "./pending.service.js";
import { startTriageBackfill, startTriageSweep } from "./triage.jobs.js";
import { triageRoutes } from "./triage.routes.js";

/** What triaging a run needs, from the app's deps (routes, notify, the report read groups). */
export function triageDepsOf(deps: AppDeps): TriageDeps {
  return {
    db: deps.db,
    settings: { similarity: deps.config.triageSimilarity },
    log: deps.logger,
  };
}

/**
 * Triage in the app: its routes, the sweep of runs left marked by a server that died before
 * triaging them, and the backfill of runs stored before fingerprints existed. New runs are
 * marked in their upload's transaction and triaged after its commit (ingest's onRunStored,
 * app.ts; pending.service.ts).
 */
export async function registerTriage(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const triage = triageDepsOf(deps);
  await app.register(triageRoutes(triage));
  if (!runsWorkers(deps)) return;
  await startTriageSweep(deps.jobs, triage);
  await startTriageBackfill(deps.jobs, triage);
}
