import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { RetentionFileSchema, readRetentionPolicy } from "../config-retention.js";
import { createDb, type Db } from "../db/pool.js";
import { migrate } from "../db/migrate.js";
import { createLogger } from "../logger.js";
import { retentionDeps } from "../retention-deps.js";
import { runRetentionPass } from "../modules/retention/retention.pass.js";
import { getTestHistory, getTopFails } from "../modules/runs/history.service.js";
import { LocalObjectStore } from "../storage/local-store.js";
import { ensureMonthPartitions } from "../modules/storage/partitions.repo.js";
import { withTransaction } from "../db/pool.js";

/*
 * Retention of a year to six months (issue 36): a generated store of RUNS daily runs (one a day,
 * the newest yesterday) of RESULTS results each, with steps, 5% failures and ATTACHMENTS stored
 * objects per run, results in their monthly partitions (migration 0191, made ahead here as the
 * storage upkeep makes them). A pass with runsDays = failuresDays = 183 runs while a reader asks Top Fails and
 * a test's history every 100 ms; printed: pg_database_size before and after, the pass's time and
 * the reader's latencies and errors.
 * Usage: npm run bench:retention -- postgres://postgres@127.0.0.1:5432/postgres
 */

const RUNS = Number(process.env.RUNS ?? 365);
const RESULTS = Number(process.env.RESULTS ?? 10_000);
const ATTACHMENTS = Number(process.env.ATTACHMENTS ?? 20);
const DB_NAME = process.env.RETENTION_BENCH_DB ?? "assay_retention_bench";
if (!/^[a-z_][a-z0-9_]{0,62}$/.test(DB_NAME))
  throw new Error("RETENTION_BENCH_DB: expected a lower-case database name such as rb_mine");
const DAY = 86_400_000;
const out = (line: string) => process.stdout.write(`${line}\n`);
const mib = (n: number) => `${(n / 1048576).toFixed(0)} MiB`;

const STEPS = JSON.stringify(
  Array.from({ length: 6 }, (_, i) => ({
    action: `step ${i + 1}: open the page, fill the form and check the banner text`,
    passed: true,
    duration_ms: 120 + i,
  })),
);

async function generate(db: Db, objects: LocalObjectStore): Promise<void> {
  const now = Date.now();
  const first = new Date(now - RUNS * DAY);
  await db.pool.query(
    `INSERT INTO tests (id, family, title) SELECT n, 'frontend', 'test ' || n FROM generate_series(1, $1) n`,
    [RESULTS],
  );
  await withTransaction(db, (client) => ensureMonthPartitions(client, first, new Date(now)));
  const started = performance.now();
  for (let day = 0; day < RUNS; day++) {
    const at = new Date(first.getTime() + day * DAY);
    const { rows } = await db.pool.query<{ id: number }>(
      `INSERT INTO runs (test_run_key, family, test_run_name, nora_site, executor, branch, total,
                         passed, failed, started_at, finished_at, created_at)
       VALUES ($1, 'frontend', 'Nightly regression', 'dev.legacy.example.com',
               'daily robot executor', 'main', $2, $2 - $2 / 20, $2 / 20, $3, $3, $3)
       RETURNING id::float8 AS id`,
      [`bench-${day}`, RESULTS, at],
    );
    const runId = rows[0]!.id;
    await db.pool.query(
      `INSERT INTO results (run_id, test_run_test_id, test_id, status, name, suite_path, start_time,
                            duration_ms, error_message, error_stack, json_steps, run_at)
       SELECT $1, 't' || n, n, CASE WHEN (n + $4) % 20 = 0 THEN 'failed' ELSE 'passed' END,
              'test ' || n, ARRAY['suite ' || (n % 50)], $2::timestamptz + n * interval '10 ms',
              1000 + n % 500,
              CASE WHEN (n + $4) % 20 = 0 THEN 'expected banner to contain "Saved" but got "Error"' END,
              CASE WHEN (n + $4) % 20 = 0 THEN 'Error: expected banner\n    at check (pages/form.ts:' || n || ':7)' END,
              $3::jsonb, $2::timestamptz
       FROM generate_series(1, $5) n`,
      [runId, at, STEPS, day, RESULTS],
    );
    for (let i = 0; i < ATTACHMENTS; i++) {
      const key = `bench/${day}/${i}.png`;
      const { size } = await objects.put(key, Buffer.alloc(20_000, i), {
        contentType: "image/png",
      });
      await db.pool.query(
        `INSERT INTO attachments (result_id, name, content_type, object_key, size)
         SELECT id, 'screenshot.png', 'image/png', $2, $3 FROM results
         WHERE run_id = $1 AND test_run_test_id = $4`,
        [runId, key, size, `t${i + 1}`],
      );
    }
    if (day % 30 === 29)
      out(`  generated ${day + 1} runs (${Math.round((performance.now() - started) / 1000)} s)`);
  }
  await db.pool.query("VACUUM ANALYZE");
}

/**
 * The biggest relations (a table with its TOAST, its indexes apart), then the rest of the
 * database in one line: where pg_database_size's bytes are.
 */
async function printRelations(db: Db, title: string): Promise<void> {
  const { rows } = await db.pool.query<{
    name: string;
    rows: number;
    dead: number;
    table: number;
    indexes: number;
  }>(
    `SELECT c.relname AS name, pg_stat_get_live_tuples(c.oid)::float8 AS rows,
            pg_stat_get_dead_tuples(c.oid)::float8 AS dead,
            pg_table_size(c.oid)::float8 AS table, pg_indexes_size(c.oid)::float8 AS indexes
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relkind = 'r' AND n.nspname NOT IN ('pg_catalog', 'information_schema')
     ORDER BY pg_total_relation_size(c.oid) DESC LIMIT 12`,
  );
  const total = (
    await db.pool.query<{ bytes: number }>(
      `SELECT pg_database_size(current_database())::float8 AS bytes`,
    )
  ).rows[0]!.bytes;
  const kib = (n: number) => `${Math.round(n / 1024).toLocaleString("en")} kB`;
  out(`${title}: relation | live rows | dead rows | table + TOAST | indexes`);
  let listed = 0;
  for (const row of rows) {
    listed += row.table + row.indexes;
    out(
      `  ${row.name} | ${Math.round(row.rows).toLocaleString("en")} | ${Math.round(row.dead).toLocaleString("en")} | ${kib(row.table)} | ${kib(row.indexes)}`,
    );
  }
  out(`  everything else (catalogue, smaller tables) | | ${kib(total - listed)} |`);
}

/** Asks Top Fails and a test's history every 100 ms until `stop`; their latencies and errors. */
async function reader(db: Db, stop: { done: boolean }) {
  const times: number[] = [];
  let errors = 0;
  while (!stop.done) {
    const t0 = performance.now();
    try {
      await getTopFails(db, { limit: 20 });
      await getTestHistory(db, 1 + (times.length % RESULTS), { limit: 100 });
      times.push(performance.now() - t0);
    } catch {
      errors += 1;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => Math.round(times[Math.floor(q * (times.length - 1))] ?? 0);
  return { reads: times.length, errors, median: at(0.5), p95: at(0.95), max: at(1) };
}

async function main() {
  const admin = process.argv[2] ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const root = new pg.Client({ connectionString: admin });
  await root.connect();
  await root.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await root.query(`CREATE DATABASE ${DB_NAME}`);
  await root.end();
  const url = new URL(admin);
  url.pathname = `/${DB_NAME}`;
  const db = createDb(url.toString(), 6);
  const dir = await mkdtemp(path.join(tmpdir(), "assay-retention-bench-"));
  try {
    await migrate(db.pool);
    const objects = new LocalObjectStore(dir);
    await objects.init();
    out(`${RUNS} runs of ${RESULTS} results, ${ATTACHMENTS} objects each`);
    const t0 = performance.now();
    await generate(db, objects);
    out(`generated in ${Math.round((performance.now() - t0) / 1000)} s`);
    const policy = readRetentionPolicy(
      RetentionFileSchema.parse({ default: { runsDays: 183, failuresDays: 183 } }),
    );
    const log = createLogger("error");
    // When the rewrite of the cut-off month reached its steps, from the pass's start.
    const marks: string[] = [];
    let t1 = 0;
    const deps = {
      ...retentionDeps({ db, objects, policy }, log),
      rewrite: {
        step: async (step: string, name: string) => {
          marks.push(`${name} ${step} at ${((performance.now() - t1) / 1000).toFixed(1)} s`);
        },
      },
    };
    await printRelations(db, "before the pass");
    const stop = { done: false };
    const reading = reader(db, stop);
    t1 = performance.now();
    const outcome = await runRetentionPass(deps, "bench", "cli");
    const passMs = performance.now() - t1;
    stop.done = true;
    const reads = await reading;
    const { rows } = await db.pool.query<{ bytes: number }>(
      `SELECT pg_database_size(current_database())::float8 AS bytes`,
    );
    const before = outcome!.databaseBytesBefore;
    const after = rows[0]!.bytes;
    out(
      `pass: ${outcome!.state} in ${(passMs / 1000).toFixed(1)} s: ${JSON.stringify(outcome!.totals.runs)} runs, ${outcome!.totals.results} results, ${outcome!.totals.partitions.length} partitions dropped, ${outcome!.totals.attachments} attachments`,
    );
    out(
      `months rewritten: ${(outcome!.totals.rewritten ?? []).join(", ") || "none"}; ${marks.join(", ")}`,
    );
    out(
      `pg_database_size: ${mib(before)} before, ${mib(after)} after: ${(((before - after) / before) * 100).toFixed(1)}% freed`,
    );
    out(
      `objects freed: ${mib(outcome!.objectBytesFreed)}; estimate of database bytes freed: ${mib(outcome!.bytesFreed)}`,
    );
    out(
      `reader during the pass (Top Fails + a test's history, every 100 ms): ${reads.reads} reads, ${reads.errors} errors, median ${reads.median} ms, p95 ${reads.p95} ms, max ${reads.max} ms`,
    );
    await printRelations(db, "after the pass");
    out(
      `load average: ${loadavg()
        .map((n) => n.toFixed(2))
        .join(" ")}`,
    );
  } finally {
    await db.close();
    await rm(dir, { recursive: true, force: true });
    const end = new pg.Client({ connectionString: admin });
    await end.connect();
    await end.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
    await end.end();
  }
}

await main();
