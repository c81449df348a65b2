import { jobQueue, type Jobs } from "../../jobs/jobs.js";
import { sweep } from "./notify.sender.js";
import type { NotifyDeps } from "./notify.service.js";

/**
 * The outbox's clock on pg-boss: a sweep when a run is stored (woken at once on this server), a
 * sweep each minute (a delivery queued by a server that died, a lease that ran out), and one
 * at the time the next retry is due.
 */
export const notifyQueue = jobQueue<{ reason: string }>("notify.sweep", {
  retryLimit: 0,
  expireInSeconds: 600,
});

export async function startNotifier(jobs: Jobs, deps: NotifyDeps): Promise<void> {
  await jobs.work(
    notifyQueue,
    async () => {
      const next = await sweep(deps);
      if (next === undefined) return;
      // One retry sweep queued at a time; the minute's clock covers any other.
      await jobs.send(
        notifyQueue,
        { reason: "retry" },
        { startAfter: Math.ceil(next) + 1, singletonKey: "retry", singletonSeconds: 30 },
      );
    },
    { pollingIntervalSeconds: 2 },
  );
  await jobs.schedule(notifyQueue, "* * * * *", { reason: "minute" });
  await wakeNotifier(jobs);
}

/** Sends the run's deliveries now (after the ingest transaction that queued them committed). */
export async function wakeNotifier(jobs: Jobs): Promise<void> {
  await jobs.send(notifyQueue, { reason: "run stored" });
}
