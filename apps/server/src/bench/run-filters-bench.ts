import { performance } from "node:perf_hooks";
import { RunListQuerySchema } from "@assay/core";
import { listFrontendRuns } from "../modules/runs/runs.service.js";
import { out, scratchName, timed, withScratchDatabase } from "./scratch-database.js";

/*
 * The run lists' filters (issue 32 item 15) at 100,000 frontend runs (and 20,000 backend runs
 * beside them): each filter's first page as GET /v1/test-runs answers it (the page, the count,
 * the unstable counts), median and max of 10 after 2 warm-ups. Target: 50 ms.
 * Usage: npm run bench:run-filters -- postgres://postgres@127.0.0.1:5432/postgres
 */

const RUNS = Number(process.env.RUNS ?? 100_000);
const DB_NAME = scratchName("RUN_FILTERS_BENCH_DB", "assay_run_filters_bench", "rf_mine");

const CASES: [string, Record<string, string>][] = [
  ["no filter", {}],
  ["platform nextGen", { platform: "nextGen" }],
  ["region CHINA", { region: "CHINA" }],
  ["site (1 of 12)", { site: "site7.example.com" }],
  ["branch (rare: 1 of 50)", { branch: "feature/b17" }],
  ["branch master (most)", { branch: "master" }],
  ["status failed", { status: "failed" }],
  ["date range (one month)", { from: "2026-03-01", to: "2026-03-31" }],
  ["search in names (rare word)", { q: "checkout" }],
  ["search a run key", { q: "3f2a9" }],
  [
    "all together",
    {
      platform: "legacy",
      site: "site3.example.com",
      status: "failed",
      from: "2025-06-01",
      to: "2026-10-31",
      q: "nightly",
    },
  ],
  ["page 500 (no filter)", { page: "500" }],
];

async function main() {
  await withScratchDatabase(DB_NAME, async (db) => {
    const started = performance.now();
    await db.pool.query(`
      INSERT INTO runs (test_run_key, family, test_run_name, nora_site, env, branch, is_next_gen,
                        is_china_region, total, passed, failed, created_at)
      SELECT substr(md5(n::text), 1, 12), 'frontend',
             CASE WHEN n % 97 = 0 THEN 'Checkout smoke ' ELSE 'Nightly regression ' END || n,
             'site' || (n % 12) || '.example.com', NULL,
             CASE WHEN n % 5 = 0 THEN 'feature/b' || (n % 50) ELSE 'master' END,
             n % 3 = 0, n % 10 = 0, 100, 100 - (n % 4), n % 4,
             timestamptz '2024-11-01' + n * interval '10 minutes'
      FROM generate_series(1, ${RUNS}) n;
      INSERT INTO runs (test_run_key, family, test_run_name, env, branch, total, passed, failed, created_at)
      SELECT 'api-' || n, 'backend', 'API run ' || n, 'dev' || (n % 4), 'master', 50, 50, 0,
             timestamptz '2024-11-01' + n * interval '50 minutes'
      FROM generate_series(1, ${RUNS / 5}) n;
    `);
    // As autovacuum leaves a table after a load: statistics and the visibility map (which lets
    // the count read the index alone).
    await db.pool.query("VACUUM ANALYZE runs");
    out(
      `loaded ${RUNS} frontend and ${RUNS / 5} backend runs in ${Math.round(performance.now() - started)} ms`,
    );
    const ctx = { db, ticketPattern: "nxl-\\d+" };
    for (const [label, params] of CASES) {
      const query = RunListQuerySchema.parse(params);
      const run = () => listFrontendRuns(ctx, query);
      const { median, max, last } = await timed(run);
      out(`| ${label} | ${last.total} | ${median.toFixed(1)} ms | ${max.toFixed(1)} ms |`);
    }
  });
}

await main();
