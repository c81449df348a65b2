import type { FastifyBaseLogger } from "fastify";
import type { Config } from "./config.js";
import type { Db } from "./db/pool.js";
import type { Jobs } from "./jobs/jobs.js";
import type { PrincipalResolver } from "./modules/auth/access.js";
import type { RunnerDeps } from "./modules/builds/builds.runner.js";
import type { Trackers } from "./modules/integrations/integrations.service.js";
import type { BuildLauncher } from "./modules/settings/build-launcher.js";
import type { ObjectStore } from "./storage/index.js";

/**
 * What buildApp is given. In a file of its own so that each module's register function
 * (modules/<name>/<name>.register.ts) can read it without importing app.ts, which imports them.
 */
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
  /**
   * Whether this app keeps Top Fails' totals (default true): queues their job when a run is
   * stored, and runs it with startWorkers. Tests that
   * write results with the factories, past ingestion's hooks, turn it off: the kept totals
   * would not hear of those writes (the screen then counts from results, as before).
   */
  keepTopFails?: boolean;
  /**
   * Whether uploads are triaged as they are stored (default true): their failures fingerprinted
   * and filed into failure groups in the storing transaction. Only the write bench turns it off
   * (BENCH_TRIAGE=off), to measure what triage adds to an upload.
   */
  triage?: boolean;
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
  /**
   * Whether the server's start has finished (the first admin made, startServer); /readyz
   * answers 503 until it has. Default: started, for apps built without startServer.
   */
  started?: () => boolean;
}

/** Whether this app runs job handlers and background workers (AppDeps.startWorkers). */
export const runsWorkers = (deps: AppDeps): boolean => deps.startWorkers !== false;
