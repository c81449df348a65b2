import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/pool.js";
import { jobQueue, type Jobs } from "../../jobs/jobs.js";
import { backfillRuns, type TriageSettings } from "./fingerprints.service.js";

export const triageBackfillQueue = jobQueue<{ reason: string }>("triage.backfill", {
  retryLimit: 2,
  expireInSeconds: 60 * 60,
});

/**
 * Runs stored before triage existed (or by a server without it) are fingerprinted once, at
 * start, by one server (pg-boss's singleton), in the background: the server serves meanwhile.
 */
export async function startTriageBackfill(
  jobs: Jobs,
  deps: { db: Db; settings: TriageSettings; log: FastifyBaseLogger },
): Promise<void> {
  await jobs.work(triageBackfillQueue, async () => {
    await backfillRuns(deps.db, deps.settings, deps.log);
  });
  await jobs.send(
    triageBackfillQueue,
    { reason: "start" },
    { singletonKey: "start", singletonSeconds: 60 },
  );
}
