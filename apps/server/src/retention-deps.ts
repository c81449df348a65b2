import type { FastifyBaseLogger } from "fastify";
import type { RetentionPolicy } from "./config-retention.js";
import type { Db } from "./db/pool.js";
import type { RetentionDeps } from "./modules/retention/retention.pass.js";
import { unstableCounts } from "./modules/runs/runs.service.js";
import { runsLosingResults } from "./modules/topfails/topfails.service.js";
import type { ObjectStore } from "./storage/index.js";

/**
 * What a retention pass needs, for the server, the demo, `assay retention` and the benchmark:
 * here, outside both modules, because retention counts unstable results as the runs module does
 * while the runs module reads retention's roll-ups (and tells Top Fails' kept totals, which read
 * them too, what it removes).
 */
export function retentionDeps(
  w: { db: Db; objects: ObjectStore; policy: RetentionPolicy | undefined },
  log: FastifyBaseLogger,
): RetentionDeps {
  return {
    ...w,
    log,
    unstableCounts: (ids) => unstableCounts(w.db, ids),
    resultsRemoving: runsLosingResults,
  };
}
