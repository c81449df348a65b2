import type { FastifyBaseLogger } from "fastify";
import { withTransaction, type Db } from "../../db/pool.js";
import { jobQueue, type Jobs } from "../../jobs/jobs.js";
import { ensureMonthPartitions, partitionDefaultRows } from "./partitions.repo.js";

/*
 * Results' monthly partitions are made ahead: this month and the next two, at each start and
 * every day, as a pg-boss job (one server takes each: its lease is the job's), so an upload never
 * waits for one and the default partition stays empty of recent months.
 */

/** Months made ahead of the current one. */
export const MONTHS_AHEAD = 2;

export const partitionUpkeepQueue = jobQueue<{ reason: string }>("storage.partitions", {
  retryLimit: 2,
  expireInSeconds: 15 * 60,
});

export interface UpkeepDeps {
  db: Db;
  log: FastifyBaseLogger;
}

/**
 * Makes the missing partitions from this month (or from `from`'s) to MONTHS_AHEAD ahead, and
 * those of months the default partition holds rows of; returns their names.
 */
export async function upkeepPartitions(db: Db, now = new Date(), from = now): Promise<string[]> {
  const until = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + MONTHS_AHEAD, 1));
  return withTransaction(db, async (client) => {
    const { created } = await ensureMonthPartitions(client, from, until);
    return [...created, ...(await partitionDefaultRows(client))];
  });
}

export async function startPartitionUpkeep(jobs: Jobs, deps: UpkeepDeps): Promise<void> {
  await jobs.work(
    partitionUpkeepQueue,
    async () => {
      const created = await upkeepPartitions(deps.db);
      if (created.length > 0) deps.log.info({ created }, "results: monthly partitions made ahead");
    },
    { pollingIntervalSeconds: 60 },
  );
  await jobs.schedule(partitionUpkeepQueue, "7 1 * * *", { reason: "daily" });
  await jobs.send(
    partitionUpkeepQueue,
    { reason: "start" },
    { singletonKey: "start", singletonSeconds: 60 },
  );
}
