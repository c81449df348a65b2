import path from "node:path";
import { EMBEDDED_DATABASE_NAME } from "../db/database.js";
import { startEmbeddedPostgres } from "../db/embedded-postgres.js";
import type { Cleanup } from "../bench/cleanup.js";
import { quietLog } from "../bench/databases.js";
import { step } from "../bench/output.js";
import { startServerProcess, type ServerProcess } from "../bench/server-process.js";
import type { ReadTargets } from "./readers.js";

/*
 * The dataset is the demo a fresh install shows (ASSAY_DEMO=1): 60 days of a team's runs posted
 * through the real ingest routes, as reporters write them (frontend JUnit and Cucumber runs of
 * three sites, backend runs, the daily robot and its reruns, live runs, load runs, screenshots,
 * '@unstable' tags, 1,500 tests). Loading it takes a few minutes; with --data-dir the folder is
 * kept and a later run starts on it without loading again.
 */

interface Instance {
  demo: boolean;
  demo_loaded_at: string | null;
}

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  return (await response.json()) as T;
}

/**
 * Starts the server on `dataDir`, with the demo loaded (at most `loadMs` for the load);
 * `nodeArgs` go to its node (e.g. --cpu-prof).
 */
export async function startWithDemo(
  dataDir: string,
  maxLifetimeMs: number,
  loadMs: number,
  cleanup: Cleanup,
  nodeArgs: string[] = [],
): Promise<ServerProcess> {
  const server = await startServerProcess(
    // The demo's progress lines are at info level.
    { dataDir, maxLifetimeMs, nodeArgs, env: { ASSAY_DEMO: "1", LOG_LEVEL: "info" } },
    cleanup,
  );
  const until = Date.now() + loadMs;
  let said = false;
  for (;;) {
    const instance = await getJson<Instance>(`${server.url}/v1/instance`);
    if (instance.demo_loaded_at) break;
    if (!said) {
      step("loading the demo data through the ingest routes (a few minutes)");
      said = true;
    }
    if (Date.now() > until) throw new Error(`the demo did not load within ${loadMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 2_000));
  }
  return server;
}

interface RunPage {
  items: { test_run_key: string; total: number }[];
  total: number;
}

/** The runs and tests the readers read: the newest runs with results, the most failing tests. */
export async function findTargets(baseUrl: string): Promise<ReadTargets> {
  const withResults = (page: RunPage) =>
    page.items.filter((r) => r.total > 0).map((r) => r.test_run_key);
  const frontend = await getJson<RunPage>(`${baseUrl}/v1/test-runs?page=1&page_size=100`);
  const backend = await getJson<RunPage>(`${baseUrl}/v1/api-test-runs?page=1&page_size=100`);
  const fails = await getJson<{ id: number }[]>(`${baseUrl}/v1/fails?limit=50`);
  const targets = {
    frontendRuns: withResults(frontend).slice(0, 30),
    backendRuns: withResults(backend).slice(0, 30),
    testIds: fails.map((f) => f.id),
    frontendPages: Math.ceil(frontend.total / 15),
  };
  for (const [name, list] of Object.entries(targets)) {
    if (Array.isArray(list) && list.length === 0) throw new Error(`the dataset has no ${name}`);
  }
  return targets;
}

/** The URL of the server's embedded database, shared while the server runs it. */
export async function serverDatabaseUrl(dataDir: string): Promise<string> {
  const cluster = await startEmbeddedPostgres(path.join(dataDir, "postgres"), quietLog);
  return cluster.urlFor(EMBEDDED_DATABASE_NAME);
}
