import type { FastifyInstance } from "fastify";
import type { Jobs } from "../../jobs/jobs.js";
import { startRetention } from "./retention.jobs.js";
import type { RetentionDeps } from "./retention.pass.js";
import { retentionRoutes } from "./retention.routes.js";

export interface RetentionWiring {
  deps: RetentionDeps;
  jobs: Jobs;
  /** This server's id in `servers`: the owner named on its passes. */
  serverId: () => string;
  startWorkers: boolean;
}

/** The retention module in the server: its routes, and its nightly pass where workers run. */
export async function registerRetention(app: FastifyInstance, w: RetentionWiring): Promise<void> {
  await app.register(retentionRoutes(w.deps.db, w.deps.policy));
  if (w.startWorkers) await startRetention(w.jobs, w.deps, w.serverId);
}
