import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { createDb, type Db } from "../db/pool.js";
import { migrate } from "../db/migrate.js";
import { listTopFails, topFailsQuery } from "../modules/runs/history.repo.js";
import { countStep } from "../modules/topfails/topfails.service.js";
import { Cleanup } from "./cleanup.js";
import { getRaw } from "./http-get.js";
import { callTimes, median, ms } from "./output.js";
import { loadDataset } from "./query-data.js";
import { scratchName } from "./scratch-database.js";
import { startServerProcess } from "./server-process.js";

/*
 * Top Fails at size (issue 36): DAYS daily runs of PER_RUN results from query-data.ts's generator
 * (the --year store's density: ~100,000 tests, ~9,600 failures a run), then Top Fails counted from
 * results (as before the kept totals) and read from the kept totals, in SQL and over HTTP, and the
 * kept totals' job steps. Default 80 days: the two-month window of a year of daily runs.
 * Usage: npm run bench:topfails -- [admin URL, default postgres://postgres@127.0.0.1:5432/postgres]
 * Env: DAYS, PER_RUN, TOPFAILS_BENCH_DB (database name), TOPFAILS_BENCH_REUSE=1 (keep the store
 * and reuse it on the next run instead of loading it again).
 */

const DAYS = Number(process.env.DAYS ?? 80);
const PER_RUN = Number(process.env.PER_RUN ?? 100_000);
const REUSE = process.env.TOPFAILS_BENCH_REUSE === "1";
const out = (line: string) => process.stdout.write(`${line}\n`);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

/** `calls` timed calls after one untimed. */
const timed = (calls: number, fn: () => Promise<unknown>) => callTimes(calls, fn, 1);

/** Execution time and buffers of the statement, as PostgreSQL counts them (EXPLAIN ANALYZE). */
async function explained(db: Db, source: "results" | "kept"): Promise<string> {
  const { sql, parameters } = topFailsQuery(db, 2, 50, source).compile();
  const client = await db.pool.connect();
  let rows: { "QUERY PLAN": string }[];
  try {
    // As listTopFails reads the kept totals: without JIT.
    await client.query(`SET jit = ${source === "kept" ? "off" : "default"}`);
    ({ rows } = await client.query<{ "QUERY PLAN": string }>(
      `EXPLAIN (ANALYZE, BUFFERS) ${sql}`,
      parameters as unknown[],
    ));
    await client.query(`RESET jit`);
  } finally {
    client.release();
  }
  const lines = rows.map((r) => r["QUERY PLAN"]);
  const planning = lines.find((l) => l.startsWith("Planning Time"));
  const execution = lines.find((l) => l.startsWith("Execution Time"));
  return `${planning}; ${execution}; ${lines[1]?.trim()}`;
}

function figure(label: string, times: number[]): void {
  out(
    `${label}: median ${ms(median(times))}, min ${ms(Math.min(...times))}, max ${ms(Math.max(...times))} (${times.length} calls; load ${load()})`,
  );
}

async function timedStep(db: Db, label: string): Promise<void> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const step = await countStep(db);
  const used = process.cpuUsage(cpu);
  out(
    `${label}: ${ms(performance.now() - started)} (bench process CPU ${ms((used.user + used.system) / 1000)}), ${JSON.stringify(step)}`,
  );
}

/** Takes the newest run out of the kept totals, as if it had just been stored. */
async function uncountNewest(db: Db): Promise<void> {
  await db.pool.query(`
    WITH newest AS (SELECT max(run_id) AS id FROM topfails_runs),
    f AS (
      SELECT test_id, count(*)::int AS n FROM results
      WHERE run_id = (SELECT id FROM newest) AND is_final AND status = 'failed'
        AND (error_message IS NULL OR error_message NOT LIKE '%Pending reason%')
        AND start_time >= (SELECT counted_from FROM topfails_state)
      GROUP BY test_id
    ), t AS (
      UPDATE topfails_totals t SET fail_count = t.fail_count - f.n FROM f WHERE t.test_id = f.test_id
    )
    DELETE FROM topfails_runs WHERE run_id = (SELECT id FROM newest)`);
  await db.pool.query(`DELETE FROM topfails_totals WHERE fail_count <= 0`);
}

async function http(url: string, calls: number): Promise<number[]> {
  return timed(calls, async () => {
    const answer = await getRaw(`${url}/v1/fails`, 60_000, { "cache-control": "no-cache" });
    if (answer.status !== 200) throw new Error(`/v1/fails answered ${answer.status}`);
  });
}

async function main(): Promise<void> {
  const admin = process.argv[2] ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const name = scratchName("TOPFAILS_BENCH_DB", "assay_bench_topfails", "tf_mine");
  const url = new URL(admin);
  url.pathname = `/${name}`;
  const cleanup = new Cleanup();
  const root = new pg.Client({ connectionString: admin });
  await root.connect();
  const exists = await root.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [name]);
  if (!REUSE || exists.rowCount === 0) {
    await root.query(`DROP DATABASE IF EXISTS ${name}`);
    await root.query(`CREATE DATABASE ${name}`);
    out(`loading ${DAYS} runs of ${PER_RUN} results into ${name} (load ${load()})`);
    const dataset = await loadDataset(url.toString(), {
      days: DAYS,
      perRun: PER_RUN,
      ownCluster: false,
    });
    out(`loaded: ${JSON.stringify(dataset)}`);
  }
  cleanup.add("the admin connection", () => root.end());
  if (!REUSE)
    cleanup.add("the scratch database", async () => {
      await root.query(`DROP DATABASE IF EXISTS ${name}`);
    });
  const db = createDb(url.toString(), 2);
  cleanup.add("the pool", () => db.close());
  const folder = await mkdtemp(path.join(tmpdir(), "assay-topfails-bench-"));
  cleanup.add("the server's folder", () => rm(folder, { recursive: true, force: true }));
  try {
    await migrate(db.pool);
    // Before: nothing kept, every read counts the window from results.
    await db.pool.query(`DELETE FROM topfails_state; DELETE FROM topfails_totals;
                         DELETE FROM topfails_runs`);
    figure("Top Fails SQL, counted from results", await timed(5, () => listTopFails(db, 2, 50)));
    out(`  ${await explained(db, "results")}`);
    await timedStep(db, "job step, first (counts the window)");
    figure("Top Fails SQL, kept", await timed(20, () => listTopFails(db, 2, 50, "kept")));
    out(`  ${await explained(db, "kept")}`);
    await uncountNewest(db);
    figure(
      "Top Fails SQL, kept, newest run not counted yet",
      await timed(20, () => listTopFails(db, 2, 50, "kept")),
    );
    await timedStep(db, "job step, one run of the size to count");
    await timedStep(db, "job step, nothing to count");

    // Over HTTP: a server on the store, first with its totals not usable (the step is held on
    // the state row's lock, as a step under way would), then once its own job counted them.
    const server = await startServerProcess(
      {
        dataDir: folder,
        databaseUrl: url.toString(),
        maxLifetimeMs: 30 * 60_000,
        // One key for every run on a reused store (the sign-in keys it holds are sealed with it).
        env: { ASSAY_SECRET_KEY: Buffer.alloc(32, 3).toString("base64") },
      },
      cleanup,
    );
    cleanup.add("the server", () => server.stop());
    const hold = new pg.Client({ connectionString: url.toString() });
    await hold.connect();
    await hold.query(`UPDATE topfails_state SET stale = true`);
    await hold.query(`BEGIN`);
    await hold.query(`SELECT 1 FROM topfails_state FOR UPDATE`);
    figure("Top Fails HTTP, counted from results", await http(server.url, 5));
    await hold.query(`ROLLBACK`);
    await hold.end();
    const waitFrom = performance.now();
    for (;;) {
      const { rows } = await db.pool.query(`SELECT stale FROM topfails_state`);
      if (rows[0]?.stale === false) break;
      if (performance.now() - waitFrom > 10 * 60_000) throw new Error("the server never counted");
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    out(`the server's job counted again in ${ms(performance.now() - waitFrom)}`);
    figure("Top Fails HTTP, kept", await http(server.url, 20));
  } finally {
    await cleanup.run();
  }
}

await main();
