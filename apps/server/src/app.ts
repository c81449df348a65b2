import { randomUUID } from "node:crypto";
import { availableParallelism } from "node:os";
import Fastify, { type FastifyInstance } from "fastify";
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import type { AppDeps } from "./app-deps.js";
import { createSidePool } from "./db/pool.js";
import { registerErrorHandler } from "./errors.js";
import { appLogger } from "./logger.js";
import { registerControlCharacterCheck } from "./http/control-characters.js";
import { registerHttpPlugins } from "./http/plugins.js";
import pLimit from "p-limit";
import { objectStoreSink } from "./modules/ingest/pipeline/attachment-sink.js";
import { KnownTests } from "./modules/ingest/test-ids/test-id-cache.js";
import { ParseWorkers } from "./modules/ingest/worker/parse-workers.js";
import { ingestRoutes } from "./modules/ingest/http/ingest.routes.js";
import { startOrphanSweep } from "./modules/ingest/orphan-sweep.js";
import { registerStorage } from "./modules/storage/storage.register.js";
import { liveRoutes } from "./modules/ingest/http/live.routes.js";
import { registerAccessControl } from "./modules/auth/access.js";
import cookie from "@fastify/cookie";
import { createAuth } from "./modules/auth/auth.setup.js";
import { profileRoutes } from "./modules/profile/profile.routes.js";
import { profileKey } from "./modules/profile/profile.service.js";
import { loadSecretKey } from "./secret-key.js";
import { registerWebApp } from "./http/web-app.js";
import { acceptEmptyJsonBody } from "./http/json-body.js";
import { catalogRoutes } from "./modules/catalog/catalog.routes.js";
import { healthRoutes } from "./modules/health/health.routes.js";
import { createEmbeddedIdentity } from "./modules/identity/embedded-identity.js";
import { objectsRoutes } from "./modules/objects/objects.routes.js";
import { dashboardRoutes } from "./modules/dashboard/dashboard.routes.js";
import { ServerRegistry } from "./modules/servers/servers.registry.js";
import { registerSettings } from "./modules/settings/settings.register.js";
import { historyRoutes } from "./modules/runs/history.routes.js";
import { instanceRoutes } from "./modules/instance/instance.routes.js";
import { runsRoutes } from "./modules/runs/runs.routes.js";
import { RunViewCache } from "./modules/runs/view/view-cache.js";
import { runViewRoutes } from "./modules/runs/view/view.routes.js";
import { withViewWarming, type RunViewContext } from "./modules/runs/view/view.service.js";
import { tagsRoutes } from "./modules/tags/tags.routes.js";
import { recordRunAliases } from "./modules/aliases/aliases.ingest.js";
import type { RegisteredTests } from "./modules/ingest/ingest.service.js";
import type { WrittenRun } from "./modules/ingest/pipeline/results-writer.js";
import { registerAliases } from "./modules/aliases/aliases.register.js";
import { markForTriage, triageStep, untilTriaged } from "./modules/triage/pending.service.js";
import { AfterCommitSteps } from "./modules/pending/pending.service.js";
import type { PoolClient } from "pg";
import { resultDefect } from "./modules/triage/defects.service.js";
import { registerTriage, triageDepsOf } from "./modules/triage/triage.register.js";
import { diffRoutes } from "./modules/diff/diff.routes.js";
import { trendsRoutes } from "./modules/trends/trends.routes.js";
import { registerFlaky } from "./modules/flaky/flaky.register.js";
import { flakyStep, markForFlaky } from "./modules/flaky/stats.service.js";
import { runResultsOfCause } from "./modules/triage/causes.service.js";
import { traceabilityRoutes } from "./modules/traceability/traceability.routes.js";
import { registerIntegrations } from "./modules/integrations/integrations.register.js";
import { releasesRoutes } from "./modules/releases/releases.routes.js";
import { registerBuilds } from "./modules/builds/builds.register.js";
import { buildTokenLookup } from "./modules/builds/build-env.js";
import { registerHarmonization } from "./modules/harmonization/harmonization.register.js";
import { registerNotify } from "./modules/notify/notify.register.js";
import { badgeRoutes } from "./modules/badge/badge.routes.js";
import { reportRoutes } from "./modules/report/report.routes.js";
import { notifyOnRunEnd } from "./modules/notify/notify.jobs.js";
import { registerRetention } from "./modules/retention/retention.register.js";
import { retentionDeps } from "./retention-deps.js";
import {
  declareTopFailsCount,
  startTopFailsCount,
  withTopFailsCount,
} from "./modules/topfails/topfails.jobs.js";
import { runChanging } from "./modules/topfails/topfails.service.js";

export type { AppDeps } from "./app-deps.js";

/**
 * The whole server on one screen: plugins first, then each module's routes, registered
 * explicitly (no autoload) so that reading this file tells what the server serves. A module
 * with workers or wiring of its own has a register function (modules/<name>/<name>.register.ts).
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, db } = deps;
  const secret = deps.secret ?? loadSecretKey(config);
  // The embedded identity provider at /oidc, unless sign-in goes to an external issuer.
  const identity = config.oidcIssuer
    ? undefined
    : createEmbeddedIdentity({ config, db: db.kysely, secret, log: deps.logger });
  const app = Fastify({
    loggerInstance: appLogger(deps.logger),
    // Bounded so a slow client cannot hold a connection forever (no reverse proxy assumed).
    requestTimeout: 120_000,
    connectionTimeout: 0,
    routerOptions: { maxParamLength: 500 },
    genReqId: () => randomUUID(),
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  registerControlCharacterCheck(app);
  acceptEmptyJsonBody(app);
  // Sign-in: session cookie, service tokens and the issuer's access tokens (modules/auth).
  const auth = createAuth({
    app,
    config,
    db,
    secret,
    log: deps.logger,
    buildTokens: buildTokenLookup(db.kysely),
  });
  // Cookies are parsed before the access check below reads the session cookie.
  await app.register(cookie, { secret: auth.cookieSecret });
  // Before any route is added: the onRoute check refuses routes without an access rule.
  registerAccessControl(app, {
    resolvePrincipal: deps.resolvePrincipal ?? auth.resolvePrincipal,
    readAccess: config.readAccess,
    badgeToken: config.badgeToken,
  });
  // Security headers, compression, kept answers, /docs, multipart (http/plugins.ts).
  await registerHttpPlugins(app, { db, publicUrl: config.publicUrl });

  if (identity) await app.register(identity.routes);
  await app.register(auth.routes);
  await app.register(
    profileRoutes({ db: db.kysely, key: profileKey(secret), objects: deps.objects }),
  );
  await app.register(healthRoutes(db, deps.started ?? (() => true)));
  await app.register(catalogRoutes(config.catalog));
  await app.register(objectsRoutes(deps.objects));
  const parseThreads = availableParallelism();
  const parseWorkers = new ParseWorkers(parseThreads);
  // A serving server loads its parse thread before the first upload (parse-workers.ts start);
  // a test's app that is only injected into starts none.
  app.addHook("onListen", async () => parseWorkers.start());
  app.addHook("onClose", () => parseWorkers.close());
  // Pending object records commit apart from the upload's transaction (attachment-sink.ts).
  const pendingPool = createSidePool(db, 2, "assay-pending-objects");
  app.addHook("onClose", () => pendingPool.end());
  const triage = triageDepsOf(deps);
  const triageAtUpload = deps.triage !== false;
  const runViews = {
    db,
    cache: new RunViewCache(),
    ticketPattern: config.catalog.ticketPattern,
    majorTags: config.catalog.majorTags,
    testIdPattern: config.catalog.testIdPattern,
    causeFilter: (async (runId, filter) => {
      await untilTriaged(triage, runId);
      return runResultsOfCause(db, runId, filter);
    }) satisfies RunViewContext["causeFilter"],
  };
  // Triage and flaky's count of each stored run start after its commit, off the upload's answer,
  // and after the view the server warms for the run's first open (modules/pending).
  const afterCommit = new AfterCommitSteps(() => runViews.cache.settled());
  app.addHook("onClose", () => afterCommit.close());
  const steps = {
    triage: triageStep(triage),
    flaky: flakyStep({ db, settings: config.flaky, log: deps.logger }),
  };
  const runEnded = withViewWarming(
    notifyOnRunEnd(deps.jobs, config.notifications.settleSeconds, deps.logger),
    runViews,
  );
  const keepTopFails = deps.keepTopFails !== false;
  if (keepTopFails) await declareTopFailsCount(deps.jobs);
  const ingest = {
    runEnded: keepTopFails ? withTopFailsCount(runEnded, deps.jobs) : runEnded,
    publicUrl: config.publicUrl,
    db,
    parseWorkers,
    uploadSlots: pLimit(2 * parseThreads),
    attachments: objectStoreSink(deps.objects, pendingPool),
    testIdPattern: config.catalog.testIdPattern,
    knownTests: new KnownTests(),
    maxUploadBytes: config.maxUploadBytes,
    maxUploadFiles: config.maxUploadFiles,
    // In the transaction that stores the run: triage and flaky mark it (and do their work after
    // the commit), aliases reads its new tests (before flaky's count, so a renamed test's window
    // follows it). Flaky takes a new run's outcomes from its upload rather than reading them
    // back, while no later upload marked the run.
    onRunStored: async (
      client: PoolClient,
      runId: number,
      registered: RegisteredTests,
      written?: WrittenRun,
    ) => {
      const triageMark = triageAtUpload ? await markForTriage(client, runId) : undefined;
      await recordRunAliases(client, deps.jobs, runId, registered);
      const flakyMark = await markForFlaky(client, runId);
      // Top Fails' kept totals: a counted run's results changing marks them for a recount.
      await runChanging(client, runId);
      return () => {
        if (triageMark !== undefined) afterCommit.start(steps.triage, runId);
        afterCommit.start(steps.flaky, runId, { mark: flakyMark, value: written?.outcomes });
      };
    },
  };
  await app.register(ingestRoutes(ingest));
  await app.register(liveRoutes(ingest));
  // Objects stored by uploads that never committed (a killed server): at start, then periodically.
  if (deps.startWorkers !== false)
    await startOrphanSweep(deps.jobs, { db, objects: deps.objects, log: deps.logger });
  await registerStorage(app, deps);
  if (deps.startWorkers !== false && keepTopFails)
    await startTopFailsCount(deps.jobs, { db, log: deps.logger });
  await app.register(
    runsRoutes({
      db,
      ticketPattern: config.catalog.ticketPattern,
      defectOf: async (resultId, runId) => {
        await untilTriaged(triage, runId);
        return resultDefect(db, resultId);
      },
    }),
  );
  await app.register(historyRoutes(db));
  await app.register(badgeRoutes(db));
  await app.register(reportRoutes(triage, deps.objects, config.publicUrl));
  await app.register(runViewRoutes(runViews));
  await app.register(tagsRoutes(db));
  await registerTriage(app, deps);
  await app.register(diffRoutes({ db, settings: config.diff }));
  await app.register(trendsRoutes({ db, settings: config.trends }));
  await registerAliases(app, deps);
  await registerFlaky(app, deps, triage);
  await app.register(dashboardRoutes(db, config.catalog));
  await app.register(traceabilityRoutes({ db, rmsTagPattern: config.catalog.rmsTagPattern }));
  const trackers = await registerIntegrations(app, deps, secret);
  await app.register(releasesRoutes({ db, trackers, config: config.releases }));
  await app.register(instanceRoutes(db));
  // This server process and its lease: modules take over the work of servers whose lease ran out.
  const registry = new ServerRegistry({
    db: db.kysely,
    log: deps.logger,
    leaseMs: config.servers.leaseMs,
    heartbeatMs: config.servers.heartbeatMs,
    dataDir: config.dataDir,
  });
  // Builds own the registry's close: their runners end before the lease does.
  const { launcher } = await registerBuilds(app, deps, { secret, registry });
  // Each due slot of a Daily Run Scheduler setting launches a build through the builds module.
  await registerSettings(app, deps, { launcher, registry });
  await registerNotify(app, deps, secret);
  await registerHarmonization(app, deps, registry);
  await registerRetention(app, {
    deps: retentionDeps({ ...deps, policy: config.retention }, deps.logger),
    jobs: deps.jobs,
    serverId: () => registry.id,
    startWorkers: deps.startWorkers !== false,
  });
  // Every module has registered its takeover: the lease starts, and the first sweep recovers
  // what this server's previous process (or any dead server) left.
  if (deps.startWorkers !== false) await registry.start();

  await registerWebApp(app, {
    distDir: deps.webDistDir,
    dataHarmonizationHosts: config.dataHarmonizationHosts,
  });
  return app;
}
