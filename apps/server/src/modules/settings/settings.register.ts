import type { FastifyInstance } from "fastify";
import { runsWorkers, type AppDeps } from "../../app-deps.js";
import type { ServerRegistry } from "../servers/servers.registry.js";
import type { BuildLauncher } from "./build-launcher.js";
import { startFollowUps, WEBHOOK_QUEUE } from "./followup.js";
import { startScheduler } from "./scheduler.jobs.js";
import { launchOrphanSlots } from "./scheduler.js";
import { settingsRoutes } from "./settings.routes.js";

/**
 * The Daily Run Scheduler in the app: its routes, the tick that launches each due slot through
 * `launcher` (the builds module's), a dead server's unlaunched slots taken over at each sweep,
 * and the follow-ups of a schedule's build (rerun, summary webhook).
 */
export async function registerSettings(
  app: FastifyInstance,
  deps: AppDeps,
  shared: { launcher: BuildLauncher; registry: ServerRegistry },
): Promise<void> {
  const { config, db } = deps;
  const { registry } = shared;
  const scheduler = {
    db,
    launcher: shared.launcher,
    executorName: config.catalog.dailyRuns.executor,
    catchUpMs: config.scheduleCatchUpMs,
    minIntervalMs: config.scheduleMinIntervalMs,
    get serverId() {
      return registry.id;
    },
    log: deps.logger,
  };
  const webhooks = { allowPrivate: config.webhookAllowPrivate };
  await app.register(settingsRoutes(db, scheduler, webhooks));
  if (!runsWorkers(deps)) return;
  await startScheduler(deps.jobs, scheduler);
  registry.onSweep(async (live) => {
    await launchOrphanSlots(scheduler, live);
  });
  await startFollowUps(deps.jobs, {
    db,
    launcher: scheduler.launcher,
    rerunExecutorName: config.catalog.dailyRuns.rerunExecutor,
    publicUrl: config.publicUrl,
    webhooks,
    queueWebhook: async (job) => {
      await deps.jobs.send(WEBHOOK_QUEUE, job);
    },
    log: deps.logger,
  });
}
