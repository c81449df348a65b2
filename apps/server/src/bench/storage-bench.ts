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

/**
 * `npm run bench:storage -- [--migrate] [DAYS [PER_RUN]]` (defaults 73 x 13,700: 1M results):
 * fills a scratch database the way the read bench does (query-data.ts) and prints where the
 * bytes of `results` go, per column and index, per 1M results, and the database's size. With
 * --migrate the store is filled in the layout before the monthly partitions (migrations up to
 * PARTITIONS - 1), then migrated, timed, with the migration's own notices (its estimate and
 * progress). The database is dropped at the end.
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
  } finally {
    await pool.end();
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const migrating = args.includes("--migrate");
  const [days = 73, perRun = 13_700] = args.filter((a) => !a.startsWith("--")).map(Number);
  const cleanup = new Cleanup();
  const tmp = await mkdtemp(path.join(os.tmpdir(), "assay-bench-storage-"));
  cleanup.add(`temporary folder ${tmp}`, () => rm(tmp, { recursive: true, force: true }));
  try {
    const base = process.env.BENCH_DATABASE_URL;
    const cluster = base
      ? externalCluster(base, cleanup)
      : await embeddedCluster(path.join(tmp, "pg"), cleanup);
    const url = await cluster.createDatabase("assay_bench_storage");
    step(`${days} runs of ~${perRun} results on ${cluster.description}`);
    const all = listMigrations();
    const dataset = await loadDataset(url, {
      days,
      perRun,
      ownCluster: !base,
      ...(migrating && { migrations: all.filter((m) => m.version < PARTITIONS) }),
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
