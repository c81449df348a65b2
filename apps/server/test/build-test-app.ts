import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import type { FastifyInstance } from "fastify";
import { pino } from "pino";
import { buildApp, type AppDeps } from "../src/app.js";
import type { PrincipalResolver } from "../src/modules/auth/access.js";
import type { BuildLauncher } from "../src/modules/settings/build-launcher.js";
import { loadConfig, type Config, EXAMPLE_CONFIG_PATH } from "../src/config.js";
import type { Db } from "../src/db/pool.js";
import { Jobs } from "../src/jobs/jobs.js";
import type { ObjectStore } from "../src/storage/index.js";
import { LocalObjectStore } from "../src/storage/local-store.js";

/** The secret key of test apps (ASSAY_SECRET_KEY), so tests never write one to the data folder. */
export const TEST_SECRET_KEY = Buffer.alloc(32, 7).toString("base64");

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  /** Every log line the app wrote, parsed, so tests can assert what is (not) logged. */
  logs: Record<string, unknown>[];
  /** The app's object store: a local one in a temporary folder unless the test gave its own. */
  objects: ObjectStore;
  /** The app's background jobs, on the test database. */
  jobs: Jobs;
}

/**
 * The real app on a test database, with the example catalogue and captured logs. Objects go to
 * a temporary folder, removed when the app closes, unless `objects` is given.
 */
export async function buildTestApp(
  db: Db,
  options: {
    env?: Record<string, string>;
    webDistDir?: string;
    objects?: ObjectStore;
    /** Replaces sign-in: e.g. `async () => TEST_USER` to act as a signed-in user. */
    resolvePrincipal?: PrincipalResolver;
    /** Build executors in place of the configured ones (fakes of CodeBuild, GitHub). */
    buildExecutors?: AppDeps["buildExecutors"];
    /** The environment local build runners inherit from; default process.env. */
    serverEnv?: NodeJS.ProcessEnv;
    /** false: no job handlers (a test drives the build runner itself). */
    startWorkers?: boolean;
    /** true: keep Top Fails' totals (off by default: the factories write past ingestion). */
    keepTopFails?: boolean;
    /** false: uploads are stored without triage (AppDeps.triage, the write bench's switch). */
    triage?: boolean;
    buildLauncher?: BuildLauncher;
  } = {},
): Promise<TestApp> {
  const config = loadConfig({
    ASSAY_CONFIG: EXAMPLE_CONFIG_PATH,
    ASSAY_SECRET_KEY: TEST_SECRET_KEY,
    ...options.env,
  });
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) {
        logs.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  const logger = pino({ level: "info" }, sink);
  let objects = options.objects;
  let objectsDir: string | undefined;
  if (!objects) {
    objectsDir = await mkdtemp(path.join(tmpdir(), "assay-test-objects-"));
    const local = new LocalObjectStore(objectsDir);
    await local.init();
    objects = local;
  }
  // The template database already holds pg-boss' schema (global-setup.ts), so this is quick.
  const jobs = await Jobs.start(db.pool, logger);
  const app = await buildApp({
    config,
    db,
    logger,
    objects,
    jobs,
    webDistDir: options.webDistDir,
    resolvePrincipal: options.resolvePrincipal,
    buildExecutors: options.buildExecutors,
    serverEnv: options.serverEnv,
    startWorkers: options.startWorkers,
    keepTopFails: options.keepTopFails ?? false,
    triage: options.triage,
    buildLauncher: options.buildLauncher,
  });
  app.addHook("onClose", () => jobs.stop());
  if (objectsDir) {
    const dir = objectsDir;
    app.addHook("onClose", async () => {
      // Retried: a build the app left running (a restart test) can still be writing its log
      // there, and a file written during the removal fails it with ENOTEMPTY (CI at d8ec3e6).
      await rm(dir, { recursive: true, force: true, maxRetries: 5 });
    });
  }
  return { app, config, logs, objects, jobs };
}
