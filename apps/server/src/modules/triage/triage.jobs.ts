import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/pool.js";
import { startBackfill } from "../../jobs/backfill.js";
import type { Jobs } from "../../jobs/jobs.js";
import { backfillRuns, type TriageSettings } from "./fingerprints.service.js";

/** Runs stored before triage existed (or by a server without it) are fingerprinted once. */
export function startTriageBackfill(
  jobs: Jobs,
  deps: { db: Db; settings: TriageSettings; log: FastifyBaseLogger },
): Promise<void> {
  return startBackfill(jobs, "triage.backfill", () =>
    backfillRuns(deps.db, deps.settings, deps.log),
  );
}
