import { performance } from "node:perf_hooks";
import path from "node:path";
import { createDb, type Db } from "../db/pool.js";
import { listTestHistory, listTopFails } from "../modules/runs/history.repo.js";
import { listFrontendResults } from "../modules/runs/results.repo.js";
import { listDailyRuns } from "../modules/dashboard/dashboard.repo.js";
import { periodStart } from "../modules/dashboard/dashboard.service.js";
import { withTimeout, type Cleanup } from "./cleanup.js";
import { embeddedCluster, serverVersion, type BenchCluster } from "./databases.js";
import { ms, count, median, step } from "./output.js";
import { loadDataset, type Dataset } from "./query-data.js";
import { startServerProcess, untilServerIdle } from "./server-process.js";
import { decodeAnswer, getRaw, type RawAnswer } from "./http-get.js";

/*
 * The read side with 10M results stored: the median of 20 HTTP calls of each read the issue
 * names, against a server process pointed at the loaded database, next to the median of the
 * same SQL run directly (what the database costs; the rest is Node: serialisation, validation,
 * HTTP). Each is first called for a second without being timed (WARMUP_MS).
 */

export interface QueryFigure {
  label: string;
  path: string;
  medianMs: number;
  maxMs: number;
  /** The first, untimed call: for a run view, the one that builds and keeps what the rest read. */
  firstMs: number;
  /** Median of the repository query alone. */
  sqlMedianMs: number | undefined;
  bytes: number;
  items: number;
  targetMs: number | undefined;
  /** JSON.stringify of the answer's body alone, median. */
  stringifyMs: number;
  /** Execution time PostgreSQL reports for the repository query (EXPLAIN ANALYZE). */
  executionMs: number | undefined;
  /** EXPLAIN (ANALYZE, BUFFERS) of the repository query, when the target is missed. */
  plan?: string[];
}

export interface QueryReport {
  dataset: Dataset;
  database: string;
  figures: QueryFigure[];
  chart: { medianMs: number; readsResults: boolean; runs: number };
  postgres: string;
}

export interface QueryContext {
  tmp: string;
  quick: boolean;
  /** A year of 100,000-test daily runs (issue 36) instead of two years of ~13,700. */
  year?: boolean;
  external: BenchCluster | undefined;
  cleanup: Cleanup;
  maxLifetimeMs: number;
}

const CALLS = 20;
/**
 * Untimed calls first, for this long (at least two calls): a server answers a route many times a
 * day, and its first calls run before V8 has compiled the route's code (history: ~4.5 ms for the
 * first 200 calls, ~2.9 ms after 3,000 on this machine).
 */
const WARMUP_MS = 1000;

/** The daily chart of the runs screen: per-day sums of the counts each run stores. */
const CHART_SQL = `
  SELECT (created_at AT TIME ZONE 'UTC')::date AS day, count(*) AS runs, sum(total) AS total,
         sum(passed) AS passed, sum(failed) AS failed, sum(pending) AS pending, sum(flaky) AS flaky
  FROM runs WHERE family = 'frontend' AND created_at >= now() - interval '90 days'
  GROUP BY 1 ORDER BY 1`;

async function timeCalls(fn: () => Promise<unknown>, first?: { ms: number }): Promise<number[]> {
  const warmUntil = performance.now() + WARMUP_MS;
  for (let i = 0; i < 2 || performance.now() < warmUntil; i++) {
    const started = performance.now();
    await fn();
    if (i === 0 && first) first.ms = performance.now() - started;
  }
  const times: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  return times;
}

/** Remembers the last statement the pool's clients ran, to EXPLAIN a repository's query. */
function captureStatements(db: Db): () => { text: string; values: unknown[] } | undefined {
  let last: { text: string; values: unknown[] } | undefined;
  const wrapped = new WeakSet<object>();
  db.pool.on("acquire", (client) => {
    if (wrapped.has(client)) return;
    wrapped.add(client);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((...args: unknown[]) => {
      if (typeof args[0] === "string")
        last = { text: args[0], values: (args[1] as unknown[]) ?? [] };
      // A prepared statement (db/prepared.ts) comes as a config; EXPLAIN plans it for its values.
      else if (args[0] && typeof args[0] === "object" && "text" in args[0]) {
        const { text, values } = args[0] as { text: string; values?: unknown[] };
        last = { text, values: values ?? [] };
      }
      return query(...args);
    }) as typeof client.query;
  });
  return () => last;
}

async function explain(db: Db, statement: { text: string; values: unknown[] }): Promise<string[]> {
  const { rows } = await db.pool.query<{ "QUERY PLAN": string }>(
    `EXPLAIN (ANALYZE, BUFFERS) ${statement.text}`,
    statement.values,
  );
  return rows.map((r) => r["QUERY PLAN"]);
}

interface Probe {
  label: string;
  path: string;
  itemsOf: (body: unknown) => number;
  targetMs?: number;
  sql?: () => Promise<unknown>;
}

async function httpFigure(
  baseUrl: string,
  db: Db,
  lastStatement: ReturnType<typeof captureStatements>,
  probe: Probe,
): Promise<QueryFigure> {
  const { label, path: urlPath, itemsOf, targetMs, sql } = probe;
  let answer: RawAnswer | undefined;
  const first = { ms: 0 };
  // Request sent to the last byte of the answer received, compressed as a browser asks for it;
  // decoding and the client's JSON.parse are not the server's time (10 MB for a run: ~40 ms
  // here) and are done once, after. Cache-Control: no-cache has the answer built on every call,
  // not sent as kept (http/answer-cache.ts): these figures are the reads' own.
  const times = await timeCalls(async () => {
    answer = await getRaw(`${baseUrl}${urlPath}`, 30_000, { "cache-control": "no-cache" });
    if (answer.status !== 200) {
      const text = decodeAnswer(answer);
      throw new Error(`${urlPath} answered ${answer.status}: ${text.slice(0, 200)}`);
    }
  }, first);
  const text = decodeAnswer(answer!);
  const bytes = Buffer.byteLength(text);
  const body: unknown = JSON.parse(text);
  const items = itemsOf(body);
  const sqlTimes = sql ? await timeCalls(sql) : undefined;
  const statement = sql ? lastStatement() : undefined;
  const figure: QueryFigure = {
    label,
    path: urlPath,
    medianMs: median(times),
    maxMs: Math.max(...times),
    firstMs: first.ms,
    sqlMedianMs: sqlTimes ? median(sqlTimes) : undefined,
    bytes,
    items,
    targetMs,
    stringifyMs: median(await timeCalls(async () => JSON.stringify(body))),
    executionMs: undefined,
  };
  if (statement) {
    const plan = await explain(db, statement);
    const execution = plan.map((l) => /Execution Time: ([\d.]+) ms/.exec(l)?.[1]).find(Boolean);
    figure.executionMs = execution === undefined ? undefined : Number(execution);
    if (targetMs !== undefined && figure.medianMs >= targetMs) figure.plan = plan;
  }
  const sqlText = figure.sqlMedianMs === undefined ? "n/a" : ms(figure.sqlMedianMs);
  step(
    `${label}: median ${ms(figure.medianMs)} over HTTP (SQL alone ${sqlText}), ${count(items)} items`,
  );
  return figure;
}

function planReads(plan: unknown, table: string): boolean {
  return JSON.stringify(plan).includes(`"Relation Name":"${table}"`);
}

async function chartFigure(db: Db): Promise<QueryReport["chart"]> {
  const { rows: plan } = await db.pool.query<{ "QUERY PLAN": unknown }>(
    `EXPLAIN (FORMAT JSON) ${CHART_SQL}`,
  );
  const times = await timeCalls(() => db.pool.query(CHART_SQL));
  const { rowCount } = await db.pool.query(CHART_SQL);
  return { medianMs: median(times), readsResults: planReads(plan, "results"), runs: rowCount ?? 0 };
}

/**
 * The Frontend results dialog's reads of the newest run (GET /v1/test-runs/{key}/view): its first
 * page as it opens (the default Hide switches), a page far down the list with every result shown,
 * and a filter (New Failure). Targets are the issue's: the run's read keeps its median (34.5 ms),
 * a filter answers in 100 ms. The first call of each, untimed, builds what the others read: the
 * run's view (about 14,000 results), then the failing tests' history for the filter.
 */
function runViewProbes(dataset: Dataset): Probe[] {
  const view = `/v1/test-runs/${encodeURIComponent(dataset.latestRunKey)}/view`;
  const rows = (body: unknown) => ((body as { rows?: unknown[] }).rows ?? []).length;
  const far = Math.max(0, dataset.latestRunResults - 300);
  return [
    {
      label: RUN_VIEW_LABELS.first,
      path: `${view}?hide=passed,skipped,unstable&limit=60`,
      itemsOf: rows,
      targetMs: 34.5,
    },
    {
      label: RUN_VIEW_LABELS.far,
      path: `${view}?offset=${far}&limit=300&summary=false`,
      itemsOf: rows,
      targetMs: 34.5,
    },
    {
      label: RUN_VIEW_LABELS.filter,
      path: `${view}?hide=passed,skipped,unstable&failure=new_failure&limit=60`,
      itemsOf: rows,
      targetMs: 100,
    },
  ];
}

export const RUN_VIEW_LABELS = {
  first: "run view, first page",
  far: "run view, a far page (300 rows)",
  filter: "run view, New Failure filter",
} as const;

/** Loads the dataset into a database of its own, starts a server on it and times the reads. */
export async function benchQueries(ctx: QueryContext): Promise<QueryReport> {
  const cluster =
    ctx.external ?? (await embeddedCluster(path.join(ctx.tmp, "queries-pg"), ctx.cleanup));
  const url = await cluster.createDatabase(
    ctx.external ? `assay_bench_queries_${process.pid}` : "assay_bench",
  );
  const size = ctx.year
    ? { days: 365, perRun: 100_000 }
    : { days: ctx.quick ? 73 : 730, perRun: 13_700 };
  const options = { ...size, ownCluster: !ctx.external };
  step(
    `loading ${count(options.days * options.perRun)} results into a separate database (${cluster.description})`,
  );
  const dataset = await withTimeout(
    "loading the dataset",
    ctx.year ? 5_400_000 : 900_000,
    loadDataset(url, options),
  );
  step("starting a server on that database");
  const server = await startServerProcess(
    {
      dataDir: path.join(ctx.tmp, "queries-server"),
      databaseUrl: url,
      maxLifetimeMs: ctx.maxLifetimeMs,
    },
    ctx.cleanup,
  );
  const waited = await untilServerIdle(server, url, ctx.year ? 1_800_000 : 600_000);
  step(
    waited < 0
      ? "the server's first background work did not end: the reads are timed beside it"
      : `the server's first background work (triage, Top Fails) ended after ${ms(waited)}`,
  );
  const db = createDb(url, 1);
  const lastStatement = captureStatements(db);
  try {
    const length = (body: unknown) => (Array.isArray(body) ? body.length : 0);
    const probes: Probe[] = [
      {
        label: "history of one test",
        path: `/v1/history/${dataset.historyTestId}`,
        itemsOf: length,
        targetMs: 5,
        sql: () => listTestHistory(db, dataset.historyTestId, { limit: 100 }),
      },
      {
        label: "top fails (2 months)",
        path: "/v1/fails",
        itemsOf: length,
        targetMs: 50,
        sql: () => listTopFails(db, 2, 50),
      },
      {
        label: "one run's results",
        path: `/v1/test-runs/${encodeURIComponent(dataset.latestRunKey)}`,
        itemsOf: (body) => length((body as { results?: unknown }).results),
        targetMs: 100,
        sql: () => listFrontendResults(db, dataset.latestRunId),
      },
      {
        // The same answer built again on every call (the first open after an upload).
        label: "one run's results, rebuilt (force=true)",
        path: `/v1/test-runs/${encodeURIComponent(dataset.latestRunKey)}?force=true`,
        itemsOf: (body) => length((body as { results?: unknown }).results),
      },
      {
        // The Dashboard's GRAPH: the daily robot's runs of 90 days, from runs' stored counts.
        label: "dashboard daily chart (90 days)",
        path: "/v1/dashboard/daily-runs?family=frontend&platform=legacy&env=stage&days=90",
        itemsOf: (body) => length((body as { days?: unknown }).days),
        targetMs: 20,
        sql: () =>
          listDailyRuns(db, {
            family: "frontend",
            executor: "daily robot executor",
            since: periodStart(new Date(), 90),
            targets: ["stage.legacy.example.com"],
          }),
      },
      ...runViewProbes(dataset),
      {
        label: "runs list (page 1)",
        path: "/v1/test-runs",
        itemsOf: (body) => length((body as { items?: unknown }).items),
      },
    ];
    const figures: QueryFigure[] = [];
    for (const probe of probes)
      figures.push(await httpFigure(server.url, db, lastStatement, probe));
    const chart = await chartFigure(db);
    step(
      `daily chart (90 days) from runs' stored counts: median ${ms(chart.medianMs)}, reads results: ${chart.readsResults ? "yes" : "no"}`,
    );
    return {
      dataset,
      database: cluster.description,
      figures,
      chart,
      postgres: await serverVersion(url),
    };
  } finally {
    await db.close();
    await server.stop();
  }
}
