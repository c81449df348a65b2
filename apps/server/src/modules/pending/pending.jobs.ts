import { jobQueue, type Jobs } from "../../jobs/jobs.js";
import { sweepPending, type PendingStep } from "./pending.service.js";

/**
 * A run stays marked when the server that stored it died before its step (or the step failed):
 * every minute one server does the steps of runs marked over a minute ago that no live server
 * holds (pending.service.ts, sweepPending). A read that needs such a run's step sooner does it
 * itself.
 */
const SWEEP_AFTER_MS = 60_000;

/** The sweep of one kind of step (queue `<kind>.sweep`), on this server's job workers. */
export async function startPendingSweep<T>(jobs: Jobs, step: PendingStep<T>): Promise<void> {
  const queue = jobQueue<{ reason: string }>(`${step.kind}.sweep`, {
    retryLimit: 2,
    expireInSeconds: 30 * 60,
  });
  await jobs.work(
    queue,
    async () => {
      await sweepPending(step, SWEEP_AFTER_MS);
    },
    { pollingIntervalSeconds: 30 },
  );
  await jobs.schedule(queue, "* * * * *", { reason: "periodic" });
}
