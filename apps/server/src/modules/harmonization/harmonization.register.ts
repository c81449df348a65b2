import type { FastifyInstance } from "fastify";
import type { Logger } from "pino";
import { runsWorkers, type AppDeps } from "../../app-deps.js";
import type { ServerRegistry } from "../servers/servers.registry.js";
import { harmonizationRoutes } from "./harmonization.routes.js";
import { registerCompareWorker } from "./harmonization.runner.js";

/**
 * Data harmonization in the app: its routes (which say "not configured" without settings) and,
 * when configured, the compare worker, whose runs are owned by this server's lease.
 */
export async function registerHarmonization(
  app: FastifyInstance,
  deps: AppDeps,
  registry: ServerRegistry,
): Promise<void> {
  const { config, db } = deps;
  const dh = config.dataHarmonization;
  const dhContext = dh && {
    secrets: dh.secrets,
    // Demo sources read Assay's own PostgreSQL through a pool of their own.
    assayDatabaseUrl: String(db.pool.options.connectionString ?? ""),
    dataDir: config.dataDir,
  };
  await app.register(
    harmonizationRoutes({ db, jobs: deps.jobs, settings: dh, context: dhContext }),
  );
  if (dh && dhContext && runsWorkers(deps))
    await registerCompareWorker(deps.jobs, {
      db,
      settings: dh,
      log: deps.logger as Logger,
      context: dhContext,
      registry,
    });
}
