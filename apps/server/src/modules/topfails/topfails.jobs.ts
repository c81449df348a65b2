import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/pool.js";
import { jobQueue, type Jobs } from "../../jobs/jobs.js";
import { countStep } from "./topfails.service.js";

/**
 * The totals' clock: a step each minute counts the runs stored since the last one and moves the
 * window's start, so a read adds at most a minute or so of each. Not queued by uploads: their
 * transaction pays nothing for it, and a run not counted yet is counted by the read meanwhile.
 * Two servers' steps queue on the state row's lock (countStep), never count a run twice.
 */
export const topFailsQueue = jobQueue<{ reason: string }>("topfails.count", {
  retryLimit: 1,
  expireInSeconds: 15 * 60,
});

export async function startTopFailsCount(
  jobs: Jobs,
  deps: { db: Db; log: FastifyBaseLogger },
): Promise<void> {
  await jobs.work(topFailsQueue, async () => {
    const step = await countStep(deps.db);
    if (step.rebuilt || step.runs > 0)
      deps.log.info(step, step.rebuilt ? "top fails: counted again" : "top fails: runs counted");
  });
  await jobs.schedule(topFailsQueue, "* * * * *", { reason: "minute" });
  // At start: a store that has none yet (an upgrade, a restore) gets its totals now.
  await jobs.send(topFailsQueue, { reason: "start" }, { singletonKey: "start", singletonSeconds: 60 });
}
