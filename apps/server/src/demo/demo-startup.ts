import type { Logger } from "pino";
import { buildApp } from "../app.js";
import type { Config } from "../config.js";
import type { Jobs } from "../jobs/jobs.js";
import type { Db } from "../db/pool.js";
import type { ObjectStore } from "../storage/index.js";
import type { DemoPlanOptions } from "./demo-plan.js";
import { loadDemo } from "./demo-loader.js";
import { addDemoNotifyRules } from "./demo-notify.js";
import { addDemoSchedules } from "./demo-schedules.js";
import { loadSecretKey } from "../secret-key.js";
import { startDhDemoRuns } from "./dh-demo-runs.js";
import { runDemoRetention } from "../modules/retention/retention.demo.js";
import { retentionDeps } from "../retention-deps.js";
import { upkeepPartitions } from "../modules/storage/storage.jobs.js";

/** A demo load running in the background of a started server. */
export interface DemoTask {
  /** Settles when the load is over, whether it loaded, skipped or failed (never rejects). */
  done: Promise<void>;
  /** Stops the load after the run being posted, and waits for it. */
  stop(): Promise<void>;
}

/**
 * Demo data is for a first look: only with ASSAY_DEMO on and the embedded database, never on an
 * external PostgreSQL, which is a real installation's.
 */
export function shouldLoadDemo(config: Pick<Config, "demo" | "databaseUrl">): boolean {
  return config.demo && config.databaseUrl === undefined;
}

export interface DemoDeps {
  config: Config;
  db: Db;
  objects: ObjectStore;
  jobs: Jobs;
  log: Logger;
  /** The secret key startServer read; default: the demo's app reads it itself. */
  secret?: Buffer;
}

/**
 * Loads the demo without holding up the server: started after listen, progress and the outcome
 * logged, a failure logged as an error while the server keeps serving. The reports go to an app
 * instance of their own, built like the served one (same routes, database and object store)
 * but logging only warnings, so the thousands of ingest requests do not bury the server's log.
 */
export function startDemoLoad(deps: DemoDeps, plan?: Partial<DemoPlanOptions>): DemoTask {
  const log = deps.log.child({ module: "demo" });
  const controller = new AbortController();
  const run = async () => {
    await startDhDemoRuns(deps, log);
    const app = await buildApp({
      config: deps.config,
      db: deps.db,
      logger: deps.log.child({ module: "demo-ingest" }, { level: "warn" }),
      objects: deps.objects,
      jobs: deps.jobs,
      secret: deps.secret,
      startWorkers: false,
    });
    try {
      const { executor, rerunExecutor } = deps.config.catalog.dailyRuns;
      const outcome = await loadDemo({
        app,
        db: deps.db,
        log,
        plan,
        signal: controller.signal,
        executors: { daily: executor, rerun: rerunExecutor },
        triageSimilarity: deps.config.triageSimilarity,
        flaky: deps.config.flaky,
        atStart: async () => {
          const secret = deps.secret ?? loadSecretKey(deps.config);
          await addDemoNotifyRules({ ...deps, secret, log });
          await addDemoSchedules(deps);
        },
      });
      if (!outcome.loaded) log.info("not loading demo data: the store already has runs");
      else {
        await runDemoRetention(
          retentionDeps({ ...deps, policy: deps.config.retention }, log),
          deps.config,
        );
        // The retention demo's archive copies are dated further back than the runs (whose
        // months loadDemo made first): their few results are moved now, not at the next start.
        const made = await upkeepPartitions(deps.db);
        if (made.length > 0) log.info({ created: made }, "results: the demo's months partitioned");
      }
    } finally {
      await app.close();
    }
  };
  const done = run().catch((error: unknown) => {
    if (controller.signal.aborted) {
      log.warn("demo load stopped by shutdown; the runs loaded so far stay");
      return;
    }
    log.error({ err: error }, "loading demo data failed; the server keeps running");
  });
  return {
    done,
    stop: async () => {
      controller.abort();
      await done;
    },
  };
}
