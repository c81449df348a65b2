import type { FastifyBaseLogger } from "fastify";
import type { FlakySettings } from "../../config-flaky.js";
import type { Db } from "../../db/pool.js";
import { jobQueue, type Jobs } from "../../jobs/jobs.js";
import { backfillRuns } from "./stats.service.js";

export const flakyBackfillQueue = jobQueue<{ reason: string }>("flaky.backfill", {
  retryLimit: 2,
  expireInSeconds: 60 * 60,
});

/**
 * Runs stored before flaky existed are counted once, at start, by one server (pg-boss's
 * singleton key and its job lease: a server that dies mid-way leaves the job to expire and be
 * retried by a live one), in the background: the server serves meanwhile.
 */
export async function startFlakyBackfill(
  jobs: Jobs,
  deps: { db: Db; settings: FlakySettings; log: FastifyBaseLogger },
): Promise<void> {
  await jobs.work(flakyBackfillQueue, async () => {
    await backfillRuns(deps.db, deps.settings, deps.log);
  });
  await jobs.send(
    flakyBackfillQueue,
    { reason: "start" },
    { singletonKey: "start", singletonSeconds: 60 },
  );
}
