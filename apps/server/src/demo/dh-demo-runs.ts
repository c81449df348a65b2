import { DH_GLOBAL_SCHEMAS, type StartDhRunBody } from "@assay/core";
import type { Logger } from "pino";
import type { Config } from "../config.js";
import type { Db } from "../db/pool.js";
import type { Jobs } from "../jobs/jobs.js";
import { startRun } from "../modules/harmonization/harmonization.service.js";
import { loadDhDemo } from "./dh-demo.js";

/**
 * Makes the data harmonization demo stores on a first start and queues one comparison run per
 * demo environment, so each platform's view opens on computed results. Only when the
 * configuration is the example's (its sources are the demo stores).
 */
export async function startDhDemoRuns(
  deps: { config: Config; db: Db; jobs: Jobs },
  log: Logger,
): Promise<void> {
  const settings = deps.config.dataHarmonization;
  if (!settings || !("demo-postgres" in settings.config.sources)) return;
  try {
    if (!(await loadDhDemo(deps.db, deps.config.dataDir))) return;
    const requests: StartDhRunBody[] = [];
    for (const platform of ["legacy", "nextGen", "sfdc"] as const)
      for (const env of settings.config.environments[platform])
        requests.push({ platform, type: env.type, envType: env.envType, env: env.value });
    for (const schema of DH_GLOBAL_SCHEMAS)
      requests.push({ platform: "global", type: "sql", envType: "dev", env: "", schema });
    const dh = { db: deps.db, jobs: deps.jobs, settings };
    for (const request of requests) await startRun(dh, request, "demo");
    log.info({ runs: requests.length }, "data harmonization demo stores made; comparisons queued");
  } catch (error) {
    log.error(
      { err: error },
      "making the data harmonization demo failed; the server keeps running",
    );
  }
}
