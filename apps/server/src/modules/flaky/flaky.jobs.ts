import type { FastifyBaseLogger } from "fastify";
import type { FlakySettings } from "../../config-flaky.js";
import type { Db } from "../../db/pool.js";
import { startBackfill } from "../../jobs/backfill.js";
import type { Jobs } from "../../jobs/jobs.js";
import { backfillRuns } from "./stats.service.js";

/** Runs stored before flaky existed are counted once. */
export function startFlakyBackfill(
  jobs: Jobs,
  deps: { db: Db; settings: FlakySettings; log: FastifyBaseLogger },
): Promise<void> {
  return startBackfill(jobs, "flaky.backfill", () =>
    backfillRuns(deps.db, deps.settings, deps.log),
  );
}
