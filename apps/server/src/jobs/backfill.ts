import { jobQueue, type Jobs } from "./jobs.js";

/**
 * A module's backfill of stored runs (triage's fingerprints, flaky's windows): run once, at
 * start, by one server (pg-boss's singleton key and its job lease: a server that dies mid-way
 * leaves the job to expire and be retried by a live one), in the background: the server serves
 * meanwhile. `work` walks the runs it has not read yet (runs/backfill.service.ts).
 */
export async function startBackfill(
  jobs: Jobs,
  queueName: string,
  work: () => Promise<unknown>,
): Promise<void> {
  const queue = jobQueue<{ reason: string }>(queueName, {
    retryLimit: 2,
    expireInSeconds: 60 * 60,
  });
  await jobs.work(queue, async () => {
    await work();
  });
  await jobs.send(queue, { reason: "start" }, { singletonKey: "start", singletonSeconds: 60 });
}
