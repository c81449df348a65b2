import { randomUUID } from "node:crypto";
import { availableParallelism } from "node:os";
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import type { Logger } from "pino";
import type pg from "pg";
import helmet from "@fastify/helmet";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import type { Config } from "./config.js";
import { createSidePool, type Db } from "./db/pool.js";
import type { Jobs } from "./jobs/jobs.js";
import { registerErrorHandler } from "./errors.js";
import { appLogger } from "./logger.js";
import { registerHsts } from "./http/hsts.js";
import { registerControlCharacterCheck } from "./http/control-characters.js";
import multipart from "@fastify/multipart";
import pLimit from "p-limit";
import { objectStoreSink } from "./modules/ingest/pipeline/attachment-sink.js";
import { KnownTests } from "./modules/ingest/test-ids/test-id-cache.js";
import { ParseWorkers } from "./modules/ingest/worker/parse-workers.js";
import { ingestRoutes } from "./modules/ingest/http/ingest.routes.js";
import { startOrphanSweep } from "./modules/ingest/orphan-sweep.js";
import { startPartitionUpkeep } from "./modules/storage/storage.jobs.js";
import { liveRoutes } from "./modules/ingest/http/live.routes.js";
import { registerAccessControl, type PrincipalResolver } from "./modules/auth/access.js";
import cookie from "@fastify/cookie";
import { createAuth } from "./modules/auth/auth.setup.js";
import { profileRoutes } from "./modules/profile/profile.routes.js";
import { profileKey } from "./modules/profile/profile.service.js";
import { loadSecretKey } from "./secret-key.js";
import { registerWebApp } from "./http/web-app.js";
import { registerCompression } from "./http/compression.js";
import { registerAnswerCache } from "./http/answer-cache.js";
import { acceptEmptyJsonBody } from "./http/json-body.js";
import { catalogRoutes } from "./modules/catalog/catalog.routes.js";
import { healthRoutes } from "./modules/health/health.routes.js";
import { createEmbeddedIdentity } from "./modules/identity/embedded-identity.js";
import { objectsRoutes } from "./modules/objects/objects.routes.js";
import type { ObjectStore } from "./storage/index.js";
import { dashboardRoutes } from "./modules/dashboard/dashboard.routes.js";
import type { BuildLauncher } from "./modules/settings/build-launcher.js";
import { startScheduler } from "./modules/settings/scheduler.jobs.js";
import { launchOrphanSlots } from "./modules/settings/scheduler.js";
import { ServerRegistry } from "./modules/servers/servers.registry.js";
import { settingsRoutes } from "./modules/settings/settings.routes.js";
import { BUILD_ENDED_QUEUE, startFollowUps, WEBHOOK_QUEUE } from "./modules/settings/followup.js";
import { historyRoutes } from "./modules/runs/history.routes.js";
import { instanceRoutes } from "./modules/instance/instance.routes.js";
import { runsRoutes } from "./modules/runs/runs.routes.js";
import { RunViewCache } from "./modules/runs/view/view-cache.js";
import { runViewRoutes } from "./modules/runs/view/view.routes.js";
import { warmRunView } from "./modules/runs/view/view.service.js";
import { tagsRoutes } from "./modules/tags/tags.routes.js";
import { recordRunFailures } from "./modules/triage/fingerprints.service.js";
import { startTriageBackfill } from "./modules/triage/triage.jobs.js";
import type { PoolClient } from "pg";
import { resultDefect } from "./modules/triage/triage.service.js";
import { triageRoutes } from "./modules/triage/triage.routes.js";
import { traceabilityRoutes } from "./modules/traceability/traceability.routes.js";
import { integrationsRoutes } from "./modules/integrations/integrations.routes.js";
import { createTrackers, type Trackers } from "./modules/integrations/integrations.service.js";
import { registerSyncWorker } from "./modules/integrations/integrations.sync.js";
import { releasesRoutes } from "./modules/releases/releases.routes.js";
import { buildsRoutes } from "./modules/builds/builds.routes.js";
import { scheduledBuildLauncher } from "./modules/builds/scheduled-launcher.js";
import { buildTokenLookup } from "./modules/builds/build-env.js";
import { BuildRunner, type RunnerDeps } from "./modules/builds/builds.runner.js";
import path from "node:path";
import { harmonizationRoutes } from "./modules/harmonization/harmonization.routes.js";
import { notifyRoutes } from "./modules/notify/notify.routes.js";
import { badgeRoutes } from "./modules/badge/badge.routes.js";
import { reportRoutes } from "./modules/report/report.routes.js";
import { startNotifier, wakeNotifier } from "./modules/notify/notify.jobs.js";
import {
  enqueueRunDeliveries,
  syncConfigRules,
  type NotifyDeps,
} from "./modules/notify/notify.service.js";
import { deriveKey } from "./secret-key.js";
import { registerCompareWorker } from "./modules/harmonization/harmonization.runner.js";

export interface AppDeps {
  config: Config;
  db: Db;
  logger: FastifyBaseLogger;
  /** Screenshots and other attachments: a local folder or an S3 bucket. */
  objects: ObjectStore;
  /** Background jobs (pg-boss); modules register their queues' handlers on it. */
  jobs: Jobs;
  /**
   * Whether this app runs the modules' job handlers (default true). The demo loader's own app
   * instance only sends jobs: the served app already handles them.
   */
  startWorkers?: boolean;
  /** Launches a schedule's builds; default: none here (each slot records that). */
  buildLauncher?: BuildLauncher;
  /** Who a request comes from; tests replace it to act as a signed-in user. */
  resolvePrincipal?: PrincipalResolver;
  /** Folder of the built web app; tests point it elsewhere. */
  webDistDir?: string;
  /** Tests point executors at fakes (CodeBuild, GitHub) or at test commands. */
  buildExecutors?: RunnerDeps["executors"];
  /** The environment local build runners inherit PATH, HOME and passEnv from. */
  serverEnv?: NodeJS.ProcessEnv;
  /** Jira and Spira clients; default: those config.integrations names (the demo's fakes, server.ts). */
  trackers?: Trackers;
  /**
   * The installation's secret key, as startServer read it once for the whole start; default:
   * read here (loadSecretKey), for apps built without startServer (tests, benches).
   */
  secret?: Buffer;
}

/**
 * Swagger UI's own policy for /docs, with two changes: no upgrade-insecure-requests (it breaks a
 * plain-http local install), and inline styles allowed, as on the web app's pages (Swagger UI's
 * bundle sets inline styles, which the browser refused with a console error on every visit).
 * Scripts stay 'self' only.
 */
const docsPolicy = (csp: string) =>
  csp
    .replace(/\s*upgrade-insecure-requests;?/, "")
    .replace(
      /style-src ([^;]*);/,
      (_all, sources: string) => `style-src ${sources.trim()} 'unsafe-inline';`,
    );

/**
 * The whole server on one screen: plugins first, then each module's routes, registered
 * explicitly (no autoload) so that reading this file tells what the server serves.
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

  // While stopping, answers close their connection, so a keep-alive client cannot hold the
  // shutdown open after its last request finished.
  let stopping = false;
  app.addHook("preClose", async () => {
    stopping = true;
  });
  app.addHook("onSend", async (_request, reply) => {
    if (stopping) reply.header("connection", "close");
  });

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // MUI (emotion) injects style elements at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:"],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", "data:"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    referrerPolicy: { policy: "no-referrer" },
    // Sent by registerHsts, over HTTPS only.
    strictTransportSecurity: false,
  });
  registerHsts(app, config.publicUrl);

  // Before every route, so that each answer over the threshold can be compressed.
  await registerCompression(app);
  // After the compression: the read answers kept are the bytes sent (http/answer-cache.ts).
  registerAnswerCache(app, db);

  await app.register(swagger, {
    openapi: {
      info: {
        title: "Assay API",
        description: "Test results in and out: runs, results, history, builds and more.",
        version: "1",
      },
    },
    transform: jsonSchemaTransform,
  });
  // Upload limits are per route (ingest: ASSAY_MAX_UPLOAD_MB and ASSAY_MAX_UPLOAD_FILES); these
  // bound everything else a multipart body carries.
  await app.register(multipart, {
    limits: { fieldNameSize: 100, fieldSize: 64 * 1024, fields: 100, files: 10_000, parts: 20_000 },
    preservePath: true,
  });
  await app.register(swaggerUi, {
    routePrefix: "/docs",
    staticCSP: true,
    transformStaticCSP: docsPolicy,
  });

  if (identity) await app.register(identity.routes);
  await app.register(auth.routes);
  await app.register(
    profileRoutes({ db: db.kysely, key: profileKey(secret), objects: deps.objects }),
  );
  await app.register(healthRoutes(db));
  await app.register(catalogRoutes(config.catalog));
  await app.register(objectsRoutes(deps.objects));
  const parseThreads = availableParallelism();
  const parseWorkers = new ParseWorkers(parseThreads);
  app.addHook("onClose", () => parseWorkers.close());
  // Pending object records commit apart from the upload's transaction (attachment-sink.ts).
  const pendingPool = createSidePool(db, 2, "assay-pending-objects");
  app.addHook("onClose", () => pendingPool.end());
  const notify: NotifyDeps = {
    db,
    key: deriveKey(secret, "notify-secrets"),
    publicUrl: config.publicUrl,
    policy: { allowPrivate: config.webhookAllowPrivate },
    log: deps.logger as Logger,
  };
  const triageSettings = { similarity: config.triageSimilarity };
  const runViews = {
    db,
    cache: new RunViewCache(),
    ticketPattern: config.catalog.ticketPattern,
    majorTags: config.catalog.majorTags,
    testIdPattern: config.catalog.testIdPattern,
  };
  const ingest = {
    runEnded: {
      stored: (client: pg.PoolClient, runId: number) => enqueueRunDeliveries(client, runId),
      // The run is stored whatever happens here: a delivery not woken now goes at the next minute.
      // Its view is built now, not at its first open (view.service.ts warmRunView).
      committed: (run?: { family: string; key: string }) => {
        if (run) warmRunView(runViews, run);
        return wakeNotifier(deps.jobs).catch((error: unknown) =>
          deps.logger.warn({ err: error }, "notifications: could not wake the sender"),
        );
      },
    },
    db,
    parseWorkers,
    uploadSlots: pLimit(2 * parseThreads),
    attachments: objectStoreSink(deps.objects, pendingPool),
    testIdPattern: config.catalog.testIdPattern,
    knownTests: new KnownTests(),
    maxUploadBytes: config.maxUploadBytes,
    maxUploadFiles: config.maxUploadFiles,
    // Triage fingerprints a run's failures in the transaction that stores them.
    onRunStored: (client: PoolClient, runId: number) =>
      recordRunFailures(client, runId, triageSettings),
  };
  await app.register(ingestRoutes(ingest));
  await app.register(liveRoutes(ingest));
  // Objects stored by uploads that never committed (a killed server): at start, then periodically.
  if (deps.startWorkers !== false)
    await startOrphanSweep(deps.jobs, { db, objects: deps.objects, log: deps.logger });
  if (deps.startWorkers !== false) await startPartitionUpkeep(deps.jobs, { db, log: deps.logger });
  await app.register(
    runsRoutes({
      db,
      ticketPattern: config.catalog.ticketPattern,
      defectOf: (resultId) => resultDefect(db, resultId),
    }),
  );
  await app.register(historyRoutes(db));
  await app.register(badgeRoutes(db));
  await app.register(reportRoutes(db));
  await app.register(runViewRoutes(runViews));
  await app.register(tagsRoutes(db));
  await app.register(triageRoutes(db));
  if (deps.startWorkers !== false)
    await startTriageBackfill(deps.jobs, { db, settings: triageSettings, log: deps.logger });
  await app.register(dashboardRoutes(db, config.catalog));
  await app.register(traceabilityRoutes({ db, rmsTagPattern: config.catalog.rmsTagPattern }));
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
  await app.register(releasesRoutes({ db, trackers, config: config.releases }));
  if (deps.startWorkers !== false)
    await registerSyncWorker(deps.jobs, { db, trackers, log: deps.logger as Logger });
  await app.register(instanceRoutes(db));
  // This server process and its lease: modules take over the work of servers whose lease ran out.
  const registry = new ServerRegistry({
    db: db.kysely,
    log: deps.logger,
    leaseMs: config.servers.leaseMs,
    heartbeatMs: config.servers.heartbeatMs,
    dataDir: config.dataDir,
  });
  const runner = new BuildRunner({
    registry,
    db: db.kysely,
    builds: config.builds,
    jobs: deps.jobs,
    objects: deps.objects,
    log: deps.logger,
    publicUrl: config.publicUrl,
    installDir: config.installDir,
    logDir: path.join(config.dataDir, "build-logs"),
    profileKey: profileKey(secret),
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
  // The builds end here first, then the lease: no peer takes over a build still running here.
  app.addHook("onClose", async () => {
    await runner.close();
    await registry.close();
  });
  if (deps.startWorkers !== false) await runner.startWorkers();
  // Each due slot of a Daily Run Scheduler setting launches a build through the builds service.
  const scheduler = {
    db,
    launcher: deps.buildLauncher ?? scheduledBuildLauncher(builds),
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
  if (deps.startWorkers !== false) {
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
  await app.register(notifyRoutes(notify));
  if (deps.startWorkers !== false) {
    await syncConfigRules(notify, config.notifications.rules());
    await startNotifier(deps.jobs, notify);
  }
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
  if (dh && dhContext && deps.startWorkers !== false)
    await registerCompareWorker(deps.jobs, {
      db,
      settings: dh,
      log: deps.logger as Logger,
      context: dhContext,
      registry,
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
