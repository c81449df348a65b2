import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { listMigrations, migrate } from "../db/migrate.js";
import { Cleanup } from "./cleanup.js";
import { embeddedCluster, externalCluster } from "./databases.js";
import { say, seconds, step } from "./output.js";
import { loadDataset } from "./query-data.js";
import { storageReport, storageTable } from "./storage-report.js";
import { scratchName } from "./scratch-database.js";

/**
 * `npm run bench:storage -- [--migrate] [DAYS [PER_RUN]]` (defaults 73 x 13,700: 1M results):
 * fills a scratch database the way the read bench does (query-data.ts) and prints where the
 * bytes of `results` go, per column and index, per 1M results, and the database's size. With
 * --migrate the store is filled in the layout before the monthly partitions (migrations up to
 * PARTITIONS - 1), then migrated, timed, with the migration's own notices (its estimate and
 * progress). With --before=N the store has the layout of the migrations before N (e.g.
 * --before=216: steps inline, not in result_texts; --before=222: run facts in each row, not in
 * result_facts). The database is dropped at the end.
 */

const PARTITIONS = 191;

async function report(url: string, label: string): Promise<void> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    say(`\n${label}\n`);
    say(storageTable(await storageReport(pool)));
    const { rows } = await pool.query<{ bytes: string }>(
      "SELECT pg_database_size(current_database()) AS bytes",
    );
    say(`database: ${(Number(rows[0]!.bytes) / 1e9).toFixed(2)} GB`);
    // The catalogue, which holds a test's names once where the layout has them (migration 0221).
    const { rows: tests } = await pool.query<{ tests: string; bytes: string }>(
      "SELECT count(*) AS tests, pg_total_relation_size('tests') AS bytes FROM tests",
    );
    say(`tests: ${tests[0]!.tests} tests, ${(Number(tests[0]!.bytes) / 1e6).toFixed(1)} MB`);
    // Run facts stored once (migration 0222, where the layout has it): their tuples.
    const { rows: layout } = await pool.query<{ texts: boolean; facts: boolean }>(
      `SELECT to_regclass('result_texts') IS NOT NULL AS texts,
              to_regclass('result_facts') IS NOT NULL AS facts`,
    );
    if (layout[0]!.facts) {
      const { rows: facts } = await pool.query<{ tuples: string; bytes: string }>(
        `SELECT count(*) AS tuples, pg_total_relation_size('result_facts') AS bytes
         FROM result_facts`,
      );
      const { tuples, bytes } = facts[0]!;
      say(
        `result_facts: ${tuples} tuples, ${(Number(bytes) / 1e6).toFixed(2)} MB with its indexes`,
      );
    }
    // Texts stored once a month (migration 0216): their table, per 1M results.
    if (!layout[0]!.texts) return;
    const { rows: texts } = await pool.query<{ texts: string; bytes: string; results: string }>(
      `SELECT (SELECT count(*) FROM result_texts) AS texts,
              (SELECT sum(pg_total_relation_size(inhrelid)) FROM pg_inherits
               WHERE inhparent = 'result_texts'::regclass) AS bytes,
              (SELECT count(*) FROM results) AS results`,
    );
    for (const t of texts) {
      const perMillion = (Number(t.bytes) * 1e6) / Math.max(1, Number(t.results)) / 1e6;
      say(
        `result_texts: ${t.texts} texts, ${(Number(t.bytes) / 1e6).toFixed(1)} MB with ` +
          `its index (${perMillion.toFixed(1)} MB per 1M results)`,
      );
    }
  } finally {
    await pool.end();
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const migrating = args.includes("--migrate");
  const before = Number(args.find((a) => a.startsWith("--before="))?.slice(9) ?? Infinity);
  const [days = 73, perRun = 13_700] = args.filter((a) => !a.startsWith("--")).map(Number);
  const cleanup = new Cleanup();
  const tmp = await mkdtemp(path.join(os.tmpdir(), "assay-bench-storage-"));
  cleanup.add(`temporary folder ${tmp}`, () => rm(tmp, { recursive: true, force: true }));
  try {
    const base = process.env.BENCH_DATABASE_URL;
    const cluster = base
      ? externalCluster(base, cleanup)
      : await embeddedCluster(path.join(tmp, "pg"), cleanup);
    const url = await cluster.createDatabase(
      scratchName("STORAGE_BENCH_DB", "assay_bench_storage", "storage_mine"),
    );
    step(`${days} runs of ~${perRun} results on ${cluster.description}`);
    const all = listMigrations();
    const dataset = await loadDataset(url, {
      days,
      perRun,
      ownCluster: !base,
      ...(migrating && { migrations: all.filter((m) => m.version < PARTITIONS) }),
      ...(Number.isFinite(before) && { migrations: all.filter((m) => m.version < before) }),
    });
    say(
      `${dataset.results} results, ${dataset.runs} runs; load ${seconds(dataset.loadMs)}, ` +
        `indexes ${seconds(dataset.indexMs)}, counts and VACUUM ${seconds(dataset.vacuumMs)}`,
    );
    await report(url, migrating ? "Before the partitions" : "Layout");
    if (migrating) {
      const pool = new pg.Pool({ connectionString: url, max: 1 });
      try {
        const started = performance.now();
        await migrate(pool, all, (message) => step(`  ${message}`));
        say(`migrations from ${PARTITIONS} on: ${seconds(performance.now() - started)}`);
        await pool.query("VACUUM (ANALYZE) results");
      } finally {
        await pool.end();
      }
      await report(url, "After the partitions (and VACUUM)");
    }
  } finally {
    await cleanup.run();
  }
}

main().catch((error: unknown) => {
  say(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
});
