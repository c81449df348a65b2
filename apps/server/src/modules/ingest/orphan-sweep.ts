import type { FastifyBaseLogger } from "fastify";
import { withTransaction, type Db } from "../../db/pool.js";
import { jobQueue, type Jobs } from "../../jobs/jobs.js";
import type { ObjectStore } from "../../storage/index.js";
import * as pending from "./pipeline/pending-objects.repo.js";

/*
 * Objects are stored before the rows that name them commit, each recorded first in
 * pending_objects (pipeline/attachment-sink.ts). A record that outlives its upload by far names
 * an object no committed row refers to: the server was killed between the store and the COMMIT,
 * or the upload failed after storing it. The sweep deletes those objects, at start and every 15
 * minutes, as a pg-boss job (once across servers).
 */

/**
 * How long a key may stay pending before it is taken for an orphan. An upload settles its keys
 * batch by batch (2,000 results), and a live attachment streams within the request timeout (120
 * s); an hour is far beyond both. A key an upload has settled but not yet committed is locked by
 * its transaction and skipped, and one swept while still in use makes that upload fail (settle
 * counts its keys) rather than commit a row naming a deleted object.
 */
export const PENDING_GRACE_SECONDS = 60 * 60;
const BATCH = 200;

export interface SweepDeps {
  db: Db;
  objects: ObjectStore;
  log: FastifyBaseLogger;
}

export interface SweepReport {
  /** Objects deleted: pending past the grace period, named by no row. */
  removed: number;
  /** Stale records of objects a committed row names: the record goes, the object stays. */
  kept: number;
}

/** Deletes the objects pending longer than `graceSeconds` that no row names, and their records. */
export async function sweepOrphanObjects(
  deps: SweepDeps,
  graceSeconds = PENDING_GRACE_SECONDS,
): Promise<SweepReport> {
  const report: SweepReport = { removed: 0, kept: 0 };
  for (;;) {
    const claimed = await withTransaction(deps.db, async (client) => {
      const keys = await pending.claimExpiredPending(client, graceSeconds, BATCH);
      const named = await pending.referencedKeys(client, keys);
      // Object first, record after: a sweep stopped in between leaves a record whose object is
      // gone, which the next sweep deletes again (deleting a missing object is not an error).
      for (const key of keys) if (!named.has(key)) await deps.objects.delete(key);
      await pending.deletePending(client, keys);
      return { keys: keys.length, named: named.size };
    });
    report.removed += claimed.keys - claimed.named;
    report.kept += claimed.named;
    if (claimed.keys < BATCH) return report;
  }
}

export const orphanSweepQueue = jobQueue<{ reason: string }>("objects.orphan-sweep", {
  retryLimit: 0,
  expireInSeconds: 15 * 60,
});

/** Runs the sweep now (a start) and every 15 minutes. */
export async function startOrphanSweep(jobs: Jobs, deps: SweepDeps): Promise<void> {
  await jobs.work(
    orphanSweepQueue,
    async () => {
      const report = await sweepOrphanObjects(deps);
      if (report.removed + report.kept > 0)
        deps.log.info(report, "orphan sweep: objects of uploads that never committed removed");
    },
    { pollingIntervalSeconds: 30 },
  );
  await jobs.schedule(orphanSweepQueue, "*/15 * * * *", { reason: "periodic" });
  await jobs.send(
    orphanSweepQueue,
    { reason: "start" },
    { singletonKey: "start", singletonSeconds: 60 },
  );
}
