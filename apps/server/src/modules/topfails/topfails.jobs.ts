import type { FastifyBaseLogger } from "fastify";
import type pg from "pg";
import type { Db } from "../../db/pool.js";
import { jobQueue, type Jobs } from "../../jobs/jobs.js";
import { countStep } from "./topfails.service.js";

/**
 * The totals' job: a step when a run is stored or a live run finishes (queued in that
 * transaction: one row of pg-boss's, so the run is counted within seconds of its COMMIT, by
 * whichever server takes the job), and a step each minute, which moves the window's start (a
 * read adds at most a minute or so of what left it). Two servers' steps queue on the state row's
 * lock (countStep): no run is counted twice.
 */
export const topFailsQueue = jobQueue<{ reason: string }>("topfails.count", {
  retryLimit: 1,
  expireInSeconds: 15 * 60,
});

/** Makes the queue exist, for the sends inside uploads' transactions (Jobs.declare). */
export async function declareTopFailsCount(jobs: Jobs): Promise<void> {
  await jobs.declare(topFailsQueue);
}

/**
 * `hook` (ingest's run-ended hook, a plain object) that also queues a step in the transaction
 * that stored or finished a run: the job exists if and only if the run committed.
 */
export function withTopFailsCount<
  H extends {
    stored(client: pg.PoolClient, runId: number, how: "upload" | "finish"): Promise<void>;
  },
>(hook: H, jobs: Jobs): H {
  return {
    ...hook,
    stored: async (client: pg.PoolClient, runId: number, how: "upload" | "finish") => {
      await hook.stored(client, runId, how);
      await jobs.send(
        topFailsQueue,
        { reason: "run stored" },
        { db: { executeSql: (text, values) => client.query(text, values) } },
      );
    },
  };
}

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
  await jobs.send(
    topFailsQueue,
    { reason: "start" },
    { singletonKey: "start", singletonSeconds: 60 },
  );
}
