import { jobQueue, type Jobs } from "../../jobs/jobs.js";
import { runRetentionPass, type RetentionDeps } from "./retention.pass.js";

/**
 * The nightly pass: pg-boss sends each slot of the policy's schedule once across servers, and
 * the pass's own lease (retention_passes) keeps a second one from starting while one runs (a
 * slow pass still running at the next slot, or `assay retention --yes` at the same time).
 */
export const retentionQueue = jobQueue<{ reason: string }>("retention.nightly", {
  retryLimit: 0,
  // A pass over a year of data may take long; its lease, not the job's expiry, guards it.
  expireInSeconds: 6 * 3600,
});

export async function startRetention(
  jobs: Jobs,
  deps: RetentionDeps,
  owner: () => string,
): Promise<void> {
  await jobs.work(
    retentionQueue,
    async () => {
      if (!deps.policy) return;
      const outcome = await runRetentionPass(deps, owner(), "nightly");
      if (outcome === null) deps.log.info("retention: another pass is running; this slot skipped");
      else deps.log.info({ outcome }, "retention: pass ended");
    },
    { pollingIntervalSeconds: 60 },
  );
  if (deps.policy) await jobs.schedule(retentionQueue, deps.policy.schedule, { reason: "nightly" });
}
