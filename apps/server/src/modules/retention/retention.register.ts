import type { FastifyInstance } from "fastify";
import type { RetentionPolicy } from "../../config-retention.js";
import type { Db } from "../../db/pool.js";
import type { Jobs } from "../../jobs/jobs.js";
import type { ObjectStore } from "../../storage/index.js";
import { unstableCounts } from "../runs/runs.service.js";
import { startRetention } from "./retention.jobs.js";
import type { RetentionDeps } from "./retention.pass.js";
import { retentionRoutes } from "./retention.routes.js";

export interface RetentionWiring {
  db: Db;
  objects: ObjectStore;
  jobs: Jobs;
  policy: RetentionPolicy | undefined;
  /** This server's id in `servers`: the owner named on its passes. */
  serverId: () => string;
  startWorkers: boolean;
}

/** The dependencies of a pass, for the server and `assay retention` alike. */
export function retentionDeps(
  w: Pick<RetentionWiring, "db" | "objects" | "policy">,
  log: RetentionDeps["log"],
): RetentionDeps {
  return { ...w, log, unstableCounts: (ids) => unstableCounts(w.db, ids) };
}

/** The retention module in the server: its route, and its nightly pass where workers run. */
export async function registerRetention(app: FastifyInstance, w: RetentionWiring): Promise<void> {
  await app.register(retentionRoutes(w.db, w.policy));
  if (w.startWorkers) await startRetention(w.jobs, retentionDeps(w, app.log), w.serverId);
}
