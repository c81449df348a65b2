import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { Cleanup } from "./cleanup.js";
import { embeddedCluster, externalCluster } from "./databases.js";
import { say, step } from "./output.js";
import { loadDataset } from "./query-data.js";
import { storageReport, storageTable } from "./storage-report.js";

/**
 * `npm run bench:storage [-- DAYS [PER_RUN]]` (defaults 73 x 13,700: 1M results): fills a scratch
 * database the way the read bench does (query-data.ts) and prints where the bytes of `results`
 * go, per column and index, per 1M results, and the database's size. The database is dropped at
 * the end.
 */
async function main(): Promise<void> {
  const days = Number(process.argv[2] ?? 73);
  const perRun = Number(process.argv[3] ?? 13_700);
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
    const dataset = await loadDataset(url, { days, perRun, ownCluster: !base });
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    try {
      say(storageTable(await storageReport(pool)));
      const { rows } = await pool.query<{ bytes: string }>(
        "SELECT pg_database_size(current_database()) AS bytes",
      );
      say(
        `${dataset.results} results, ${dataset.runs} runs; database ${(Number(rows[0]!.bytes) / 1e9).toFixed(2)} GB; ` +
          `load ${(dataset.loadMs / 1000).toFixed(0)} s, indexes ${(dataset.indexMs / 1000).toFixed(0)} s`,
      );
    } finally {
      await pool.end();
    }
  } finally {
    await cleanup.run();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
