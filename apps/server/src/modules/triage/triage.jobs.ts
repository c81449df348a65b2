import { startBackfill } from "../../jobs/backfill.js";
import type { Jobs } from "../../jobs/jobs.js";
import { startPendingSweep } from "../pending/pending.jobs.js";
import { backfillRuns } from "./fingerprints.service.js";
import { triageStep, type TriageDeps } from "./pending.service.js";

/** Runs stored before triage existed (or by a server without it) are fingerprinted once. */
export function startTriageBackfill(jobs: Jobs, deps: TriageDeps): Promise<void> {
  return startBackfill(jobs, "triage.backfill", () =>
    backfillRuns(deps.db, deps.settings, deps.log),
  );
}

/** Runs left marked by a server that died before triaging them: triaged by the sweep. */
export function startTriageSweep(jobs: Jobs, deps: TriageDeps): Promise<void> {
  return startPendingSweep(jobs, triageStep(deps));
}
