import path from "node:path";
import type { FastifyInstance } from "fastify";
import { runsWorkers, type AppDeps } from "../../app-deps.js";
import type { ServerRegistry } from "../servers/servers.registry.js";
import { profileKey } from "../profile/profile.service.js";
import type { BuildLauncher } from "../settings/build-launcher.js";
import { BUILD_ENDED_QUEUE } from "../settings/followup.js";
import { buildsRoutes } from "./builds.routes.js";
import { BuildRunner } from "./builds.runner.js";
import { scheduledBuildLauncher } from "./scheduled-launcher.js";

/**
 * The builds module in the app: its runner (owned by this server's lease), its routes, and the
 * launcher schedules use (AppDeps.buildLauncher when a test gives one). The builds end before
 * the lease when the app closes: no peer takes over a build still running here.
 */
export async function registerBuilds(
  app: FastifyInstance,
  deps: AppDeps,
  shared: { secret: Buffer; registry: ServerRegistry },
): Promise<{ launcher: BuildLauncher }> {
  const { config, db } = deps;
  const runner = new BuildRunner({
    registry: shared.registry,
    db: db.kysely,
    builds: config.builds,
    jobs: deps.jobs,
    objects: deps.objects,
    log: deps.logger,
    publicUrl: config.publicUrl,
    installDir: config.installDir,
    logDir: path.join(config.dataDir, "build-logs"),
    profileKey: profileKey(shared.secret),
    serverEnv: deps.serverEnv ?? process.env,
    connection: db.pool.options,
    executors: deps.buildExecutors,
    // A schedule's build that ends may launch its rerun or send its summary (settings/followup).
    onFinished: async (row) => {
      await deps.jobs.send(BUILD_ENDED_QUEUE, { buildId: row.id, status: row.build_status });
    },
  });
  const builds = {
    db: db.kysely,
    builds: config.builds,
    catalog: config.catalog,
    queueStart: (buildId: number) => runner.queueStart(buildId),
  };
  await app.register(buildsRoutes(builds, runner));
  app.decorate("buildRunner", runner);
  app.addHook("onClose", async () => {
    await runner.close();
    await shared.registry.close();
  });
  if (runsWorkers(deps)) await runner.startWorkers();
  return { launcher: deps.buildLauncher ?? scheduledBuildLauncher(builds) };
}
