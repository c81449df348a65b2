import { DH_PROGRESS, dhReportKind, type DhRow } from "@assay/core";
import type { Logger } from "pino";
import type { DataHarmonizationSettings } from "../../config.js";
import type { Db } from "../../db/pool.js";
import { jobQueue, type Jobs } from "../../jobs/jobs.js";
import { planRun, type Sources } from "./comparisons.js";
import {
  openConnector,
  reasonOf,
  type Connector,
  type ConnectorContext,
} from "./connectors/index.js";
import {
  findRun,
  finishRun,
  interruptOrphanRuns,
  ownRun,
  saveRow,
  startRows,
  type RunRecord,
} from "./harmonization.repo.js";

/** A comparison run is a job: the run's id; the rows are in dh_run_rows. */
export const compareQueue = jobQueue<{ runId: number }>("dh-compare", {
  // A server that stopped mid-run leaves the job to the next one, which starts the run over.
  retryLimit: 1,
  expireInSeconds: 3_600,
});

/**
 * Entities compared at once in a run. Each source caps its own connections (maxConnections), so
 * this only lets one entity's row saves overlap another's counts.
 */
const ENTITY_CONCURRENCY = 8;

/** What a run's owner becomes when its server dies (its lease ran out). */
export const INTERRUPTED =
  "Interrupted: the Assay server running this report stopped before it ended. Run Report again to start a fresh run.";

/** The server registry (modules/servers): who runs a run, and the takeover of dead servers' runs. */
export interface DhRegistry {
  readonly id: string;
  onSweep(sweeper: (live: ReadonlySet<string>) => Promise<void>): void;
}

export interface RunnerDeps {
  db: Db;
  settings: DataHarmonizationSettings;
  context: ConnectorContext;
  log: Logger;
  registry: DhRegistry;
}

/** Opens each source once per run, on first use; all closed when the run ends. */
function sourcesOf(deps: RunnerDeps): { get: Sources; close: () => Promise<void> } {
  const open = new Map<string, Promise<Connector>>();
  return {
    get: (name) => {
      let connector = open.get(name);
      if (!connector) {
        const source = deps.settings.config.sources[name];
        connector = source
          ? openConnector(source, deps.context)
          : Promise.reject(new Error(`no source named ${name}`));
        open.set(name, connector);
      }
      return connector;
    },
    close: async () => {
      await Promise.allSettled(
        [...open.values()].map(async (c) => (await c.catch(() => undefined))?.close()),
      );
    },
  };
}

/** Runs `work` over `items`, at most `limit` at a time. */
async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
) {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  });
  await Promise.all(lanes);
}

/**
 * Compares one run's entities, saving each row as its status moves (the screen polls them).
 * An entity that fails is marked Failed with its reason and the others go on (spec section 8).
 */
export async function executeRun(deps: RunnerDeps, run: RunRecord): Promise<void> {
  const kind = dhReportKind(run.platform as never, run.type as never, run.env);
  const plan = planRun(deps.settings.config, {
    platform: run.platform as "legacy",
    kind,
    env: run.env,
    envType: run.envType,
    schema: run.schema,
  });
  if (typeof plan === "string") {
    await startRows(deps.db, run.id, []);
    await finishRun(deps.db, run.id, plan);
    return;
  }
  const sources = sourcesOf(deps);
  try {
    let rows: DhRow[];
    try {
      rows = await plan.rows(sources.get);
    } catch (error) {
      await startRows(deps.db, run.id, []);
      await finishRun(deps.db, run.id, reasonOf(error));
      return;
    }
    await startRows(deps.db, run.id, rows);
    await eachLimited(rows, ENTITY_CONCURRENCY, async (row) => {
      await saveRow(deps.db, run.id, { ...row, status: DH_PROGRESS[kind].working });
      let result: DhRow;
      try {
        result = await plan.task(row, sources.get);
      } catch (error) {
        result = { ...row, status: "Failed", error: reasonOf(error) };
      }
      await saveRow(deps.db, run.id, result);
    });
    await finishRun(deps.db, run.id, null);
  } finally {
    await sources.close();
  }
}

/** Registers the comparison worker on the server's job queue. */
export async function registerCompareWorker(jobs: Jobs, deps: RunnerDeps): Promise<void> {
  await jobs.work(
    compareQueue,
    async ({ runId }) => {
      const run = await findRun(deps.db, runId);
      if (!run || run.state === "done" || run.state === "failed") return;
      if (!(await ownRun(deps.db, run.id, deps.registry.id))) return;
      try {
        await executeRun(deps, run);
      } catch (error) {
        deps.log.error({ err: error, runId }, "data harmonization run failed");
        await finishRun(deps.db, run.id, reasonOf(error));
      }
    },
    { pollingIntervalSeconds: 0.5 },
  );
  deps.registry.onSweep(async (live) => {
    const ended = await interruptOrphanRuns(deps.db, [...live], INTERRUPTED);
    if (ended.length > 0)
      deps.log.warn({ runIds: ended }, "data harmonization: runs of a dead server interrupted");
  });
}
