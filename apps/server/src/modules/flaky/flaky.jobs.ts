import { startBackfill } from "../../jobs/backfill.js";
import type { Jobs } from "../../jobs/jobs.js";
import { startPendingSweep } from "../pending/pending.jobs.js";
import { backfillRuns, flakyStep, type CountDeps } from "./stats.service.js";

/** Runs stored before flaky existed are counted once. */
export function startFlakyBackfill(jobs: Jobs, deps: CountDeps): Promise<void> {
  return startBackfill(jobs, "flaky.backfill", () =>
    backfillRuns(deps.db, deps.settings, deps.log),
  );
}

/** Runs left marked by a server that died before counting them: counted by the sweep. */
export function startFlakySweep(jobs: Jobs, deps: CountDeps): Promise<void> {
  return startPendingSweep(jobs, flakyStep(deps));
}
