import type { FastifyInstance } from "fastify";
import type { Logger } from "pino";
import { runsWorkers, type AppDeps } from "../../app-deps.js";
import { deriveKey } from "../../secret-key.js";
import { startNotifier } from "./notify.jobs.js";
import { triageDepsOf } from "../triage/triage.register.js";
import { triageFailureGroups } from "./notify.groups.js";
import { notifyRoutes } from "./notify.routes.js";
import { syncConfigRules, type NotifyDeps } from "./notify.service.js";

/** The key rules' secrets are sealed with, from the installation's secret. */
export const notifyKey = (secret: Buffer) => deriveKey(secret, "notify-secrets");

/**
 * Notifications in the app: the rules' routes, the file's rules copied in, the sender. Runs
 * reach it through ingest's runEnded callbacks (app.ts: notifyOnRunEnd).
 */
export async function registerNotify(
  app: FastifyInstance,
  deps: AppDeps,
  secret: Buffer,
): Promise<void> {
  const { config } = deps;
  const notify: NotifyDeps = {
    db: deps.db,
    key: notifyKey(secret),
    publicUrl: config.publicUrl,
    policy: { allowPrivate: config.webhookAllowPrivate },
    failureGroups: triageFailureGroups(triageDepsOf(deps)),
    log: deps.logger as Logger,
  };
  await app.register(notifyRoutes(notify));
  if (!runsWorkers(deps)) return;
  await syncConfigRules(notify, config.notifications.rules());
  await startNotifier(deps.jobs, notify);
}
