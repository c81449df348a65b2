import type { FastifyBaseLogger } from "fastify";
import { jobQueue, type Jobs } from "../../jobs/jobs.js";
import type { RunEndedHook } from "../ingest/ingest.service.js";
import { sweep } from "./notify.sender.js";
import { enqueueRunDeliveries, type NotifyDeps } from "./notify.service.js";

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
      // One sweep per due second: sweeps that find the same next delivery queue it once, and a
      // delivery due sooner than one already queued gets its own (one key for every due time
      // held a run's settled notification back until the minute's sweep, up to 60 s late).
      const after = Math.ceil(next) + 1;
      const due = Math.ceil(Date.now() / 1000) + after;
      await jobs.send(
        notifyQueue,
        { reason: "retry" },
        { startAfter: after, singletonKey: `retry:${due}`, singletonSeconds: 30 },
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

/**
 * Ingestion's hook: a run stored or finished queues its deliveries in its own transaction, and
 * wakes the sender after COMMIT. An upload's wait `settleSeconds` (ASSAY_NOTIFY_SETTLE_SECONDS)
 * for more shards of the run; a live run's finish is its end and goes at once.
 */
export function notifyOnRunEnd(
  jobs: Jobs,
  settleSeconds: number,
  log: FastifyBaseLogger,
): RunEndedHook {
  return {
    stored: (client, runId, how) =>
      enqueueRunDeliveries(client, runId, how === "finish" ? 0 : settleSeconds),
    // The run is stored whatever happens here: a delivery not woken now goes at the next minute.
    committed: () =>
      wakeNotifier(jobs).catch((error: unknown) =>
        log.warn({ err: error }, "notifications: could not wake the sender"),
      ),
  };
}
