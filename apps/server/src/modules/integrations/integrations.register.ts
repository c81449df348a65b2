import type { FastifyInstance } from "fastify";
import type { Logger } from "pino";
import { runsWorkers, type AppDeps } from "../../app-deps.js";
import { profileKey } from "../profile/profile.service.js";
import { integrationsRoutes } from "./integrations.routes.js";
import { createTrackers, type Trackers } from "./integrations.service.js";
import { registerSyncWorker } from "./integrations.sync.js";

/**
 * Jira and Spira in the app: the trackers (AppDeps.trackers, else those the configuration
 * names), their routes and the requirements' sync worker. Answers the trackers for the modules
 * that read them too (releases).
 */
export async function registerIntegrations(
  app: FastifyInstance,
  deps: AppDeps,
  secret: Buffer,
): Promise<Trackers> {
  const { config, db } = deps;
  const trackers = deps.trackers ?? createTrackers(config.integrations);
  await app.register(
    integrationsRoutes({
      db,
      trackers,
      profile: { db: db.kysely, key: profileKey(secret), objects: deps.objects },
      jobs: deps.jobs,
      ticketPattern: config.catalog.ticketPattern,
    }),
  );
  if (runsWorkers(deps))
    await registerSyncWorker(deps.jobs, { db, trackers, log: deps.logger as Logger });
  return trackers;
}
