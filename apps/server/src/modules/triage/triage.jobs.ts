import { startBackfill } from "../../jobs/backfill.js";
import { jobQueue, type Jobs } from "../../jobs/jobs.js";
import { backfillRuns } from "./fingerprints.service.js";
import { sweepPending, type TriageDeps } from "./pending.service.js";

/** Runs stored before triage existed (or by a server without it) are fingerprinted once. */
export function startTriageBackfill(jobs: Jobs, deps: TriageDeps): Promise<void> {
  return startBackfill(jobs, "triage.backfill", () =>
    backfillRuns(deps.db, deps.settings, deps.log),
  );
}

const sweepQueue = jobQueue<{ reason: string }>("triage.sweep", {
  retryLimit: 2,
  expireInSeconds: 30 * 60,
});

/**
 * A run stays marked when the server that stored it died before triaging it (or its triage
 * failed): every minute one server triages the runs marked over a minute ago that no live server
 * holds (pending.service.ts, sweepPending). A read that needs such a run's groups sooner
 * triages it itself.
 */
const SWEEP_AFTER_MS = 60_000;

export async function startPendingSweep(jobs: Jobs, deps: TriageDeps): Promise<void> {
  await jobs.work(
    sweepQueue,
    async () => {
      await sweepPending(deps, SWEEP_AFTER_MS);
    },
    { pollingIntervalSeconds: 30 },
  );
  await jobs.schedule(sweepQueue, "* * * * *", { reason: "periodic" });
}
