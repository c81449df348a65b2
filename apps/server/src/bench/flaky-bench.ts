import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { FLAKY_DEFAULTS } from "../config-flaky.js";
import { createDb, type Db } from "../db/pool.js";
import { flakyTest, flakyTests } from "../modules/flaky/flaky.service.js";
import { backfillRuns, recordRunOutcomes } from "../modules/flaky/stats.service.js";
import { Cleanup } from "./cleanup.js";
import { externalCluster, withClient } from "./databases.js";
import { IngestServer } from "./ingest-server.js";
import { writeJunitReport } from "./junit-gen.js";
import { callTimes, median, ms, seconds, step } from "./output.js";
import { cpuMsOf } from "./procstat.js";
import { loadDataset } from "./query-data.js";

/*
 * Flaky tests' figures (issue 35). Usage:
 *   npm run bench:flaky -- [ingest|queries|all] [days]   (BENCH_DATABASE_URL: an external server)
 * ingest: the 100k-test JUnit upload of `npm run bench` (new tests, then the same report again:
 *   known tests), end to end through a server process; then flaky's step alone on each of those
 *   runs, in a transaction rolled back, with the windows as they were before that upload.
 * queries: the stored-results store of `npm run bench` (730 daily runs of ~13,700 results: 10M),
 *   every run counted by flaky's backfill, then the ranking and one test's evidence (median of
 *   20 after a warm-up, from Node: the service functions the routes call).
 */

const base = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const what = process.argv[2] ?? "all";
const days = Number(process.argv[3] ?? 730);
const settings = FLAKY_DEFAULTS;
/** Runs the queries' store counts through the backfill (3 windows' worth). */
const COUNTED_RUNS = 3 * settings.window;

/** 20 timed calls after 3 untimed. */
const timesOf = (fn: () => Promise<unknown>) => callTimes(20, fn, 3);

/**
 * Flaky's step on `runId` alone, the windows first set back to what `before` left. `created`:
 * the upload created the run's tests, so they are dated to this transaction as they were to the
 * upload's (flaky skips the history probe of tests created now).
 */
async function stepMs(
  db: Db,
  runId: number,
  before: number[],
  created: boolean,
): Promise<{ ms: number; cpuMs: number }> {
  const client = await db.pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("TRUNCATE flaky_stats, flaky_runs, flaky_trend");
    for (const id of before) await recordRunOutcomes(client, id, settings);
    if (created) {
      await client.query(
        "UPDATE tests SET created_at = now() WHERE id IN (SELECT test_id FROM results WHERE run_id = $1)",
        [runId],
      );
    }
    const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    const cpuBefore = cpuMsOf(rows[0]!.pid);
    const started = performance.now();
    await recordRunOutcomes(client, runId, settings);
    const ms = performance.now() - started;
    return { ms, cpuMs: cpuMsOf(rows[0]!.pid) - cpuBefore };
  } finally {
    await client.query("ROLLBACK");
    client.release();
  }
}

/**
 * CPU milliseconds used so far by the PostgreSQL backends connected to the database at `url`
 * (this machine's /proc; 0 for a remote server), by pid: on a busy machine the wall time is
 * mostly waiting for a core, the CPU time is not.
 */
async function backendsCpuMs(url: string): Promise<Map<number, number>> {
  const pids = await withClient(url, async (c) => {
    const { rows } = await c.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    );
    return rows.map((row) => row.pid);
  });
  return new Map(pids.map((pid) => [pid, cpuMsOf(pid)]));
}

/** CPU used by the database's backends between two readings (new backends: all of theirs). */
function cpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, cpu] of after) total += cpu - (before.get(pid) ?? 0);
  return total;
}

async function benchIngest(cleanup: Cleanup, tmp: string): Promise<void> {
  const url = await externalCluster(base, cleanup).createDatabase(
    `assay_flaky_ingest_${process.pid}`,
  );
  const server = await IngestServer.start({
    dataDir: path.join(tmp, "server"),
    databaseUrl: url,
    cleanup,
    maxLifetimeMs: 30 * 60_000,
  });
  const warmup = await writeJunitReport(path.join(tmp, "warmup.xml"), 1_000, 7);
  const junit = await writeJunitReport(path.join(tmp, "junit-100k.xml"), 100_000, 2);
  await server.upload([warmup], {});
  const uploads: { label: string; ms: number; cpuMs: number; key: string }[] = [];
  for (const label of ["100k new tests", "100k known tests"]) {
    const pgBefore = await backendsCpuMs(url);
    const measured = await server.upload([junit], {});
    const cpuMs = measured.serverCpuMs + cpuBetween(pgBefore, await backendsCpuMs(url));
    const key = (measured.answer.body as { test_run_key: string }).test_run_key;
    uploads.push({ label, ms: measured.answer.ms, cpuMs, key });
    step(
      `upload ${label}: ${seconds(measured.answer.ms)} (status ${measured.answer.status}); CPU ${ms(cpuMs)} (server ${ms(measured.serverCpuMs)}, its PostgreSQL backends the rest)`,
    );
  }
  await server.stop();
  const db = createDb(url, 2);
  try {
    const ids = await withClient(url, async (c) => {
      const { rows } = await c.query<{ id: number }>(
        `SELECT id::float8 AS id FROM runs WHERE test_run_key = ANY($1) ORDER BY id`,
        [uploads.map((u) => u.key)],
      );
      return rows.map((row) => row.id);
    });
    // The new tests' run once more as if its tests were older (their history probed): the
    // step as it was before it skipped the probe for tests the upload created.
    const cases = [
      { upload: uploads[0]!, at: 0, created: true, note: "" },
      { upload: uploads[0]!, at: 0, created: false, note: " (history probed)" },
      { upload: uploads[1]!, at: 1, created: false, note: "" },
    ];
    for (const { upload, at, created, note } of cases) {
      const runs: number[] = [];
      const cpu: number[] = [];
      for (let n = 0; n < 3; n++) {
        const measured = await stepMs(db, ids[at]!, ids.slice(0, at), created);
        runs.push(measured.ms);
        cpu.push(measured.cpuMs);
      }
      const cost = median(runs);
      step(
        `flaky's step on the ${upload.label} run${note}: median ${ms(cost)} of 3 = ${((100 * cost) / upload.ms).toFixed(1)}% of the upload (${seconds(upload.ms)})` +
          `; CPU ${ms(median(cpu))} = ${((100 * median(cpu)) / upload.cpuMs).toFixed(1)}% of the upload's CPU (${ms(upload.cpuMs)})`,
      );
    }
  } finally {
    await db.close();
  }
}

async function benchQueries(cleanup: Cleanup): Promise<void> {
  const url = await externalCluster(base, cleanup).createDatabase(
    `assay_flaky_queries_${process.pid}`,
  );
  step(`loading ${days} daily runs of ~13,700 results`);
  const dataset = await loadDataset(url, { days, perRun: 13_700, ownCluster: false });
  step(`${dataset.results.toLocaleString("en-US")} results in ${dataset.runs} runs`);
  const db = createDb(url, 2);
  try {
    // The last runs are counted by the backfill; older ones are marked counted first: a window
    // holds the last N results, and a test's first failure seeds its window from its history,
    // so the rows come out as a backfill of every run would leave them, in minutes less.
    await db.pool.query(
      `INSERT INTO flaky_runs (run_id)
       SELECT id FROM runs ORDER BY id DESC OFFSET $1`,
      [COUNTED_RUNS],
    );
    const started = performance.now();
    const counted = await backfillRuns(db, settings);
    step(`backfill: the last ${counted} runs counted in ${seconds(performance.now() - started)}`);
    await db.pool.query("VACUUM ANALYZE flaky_stats");
    const { rows } = await db.pool.query<{ rows: number; flaky: number }>(
      `SELECT count(*)::int AS rows, count(*) FILTER (WHERE score >= $1)::int AS flaky FROM flaky_stats`,
      [settings.threshold],
    );
    step(`flaky_stats: ${rows[0]!.rows} rows, ${rows[0]!.flaky} at or above the threshold`);
    const list = await flakyTests(db, { limit: 50 }, settings);
    const ranking = await timesOf(() => flakyTests(db, { limit: 50 }, settings));
    step(`ranking (limit 50): median ${ms(median(ranking))}, max ${ms(Math.max(...ranking))}`);
    const filtered = await timesOf(() =>
      flakyTests(db, { limit: 50, family: "frontend", branch: "main" }, settings),
    );
    step(`ranking, family and branch: median ${ms(median(filtered))}`);
    const all = await timesOf(() => flakyTests(db, { limit: 500 }, settings));
    step(`ranking (limit 500): median ${ms(median(all))}`);
    const top = list[0]?.testId ?? 0;
    // With its CPU per call (the 3 warm-ups and 20 timed calls): PostgreSQL's backends and Node.
    const pgBefore = await backendsCpuMs(url);
    const nodeBefore = process.cpuUsage();
    const evidence = await timesOf(() =>
      flakyTest(db, top, settings, { db, settings: { similarity: 0.6 } }),
    );
    const node = process.cpuUsage(nodeBefore);
    const pgCpu = cpuBetween(pgBefore, await backendsCpuMs(url)) / 23;
    step(
      `TC${top}'s score with evidence: median ${ms(median(evidence))}; CPU per call ${ms(pgCpu)} PostgreSQL + ${ms((node.user + node.system) / 1000 / 23)} Node`,
    );
  } finally {
    await db.close();
  }
}

async function main() {
  const cleanup = new Cleanup();
  const tmp = await mkdtemp(path.join(tmpdir(), "assay-flaky-bench-"));
  cleanup.add("temporary folder", () => rm(tmp, { recursive: true, force: true }));
  process.on("SIGINT", () => void cleanup.run().then(() => process.exit(130)));
  step(
    `load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
  try {
    if (what === "ingest" || what === "all") await benchIngest(cleanup, tmp);
    if (what === "queries" || what === "all") await benchQueries(cleanup);
  } finally {
    step(
      `load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}`,
    );
    await cleanup.run();
  }
}

await main();
