import { performance } from "node:perf_hooks";
import Fastify from "fastify";
import { serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import type { Db } from "../db/pool.js";
import { registerCompression } from "../http/compression.js";
import { listCoverage, matrixDataVersion } from "../modules/traceability/traceability.repo.js";
import { traceabilityRoutes } from "../modules/traceability/traceability.routes.js";
import { traceabilityMatrix } from "../modules/traceability/traceability.service.js";
import { DEFAULT_RMS_TAG_PATTERN } from "@assay/core";
import { out, scratchName, timed, withScratchDatabase } from "./scratch-database.js";

/*
 * The Traceability Matrix at the size issue #22 names: 5,000 requirements × 20,000 tests, each
 * test with RESULTS_PER_TEST final results (its tags on each, one @RMS-n per test), plus 20,000
 * non-final attempts. Times the whole GET /v1/traceability-matrix service (its four queries)
 * and the coverage query alone (what building the answer costs after a change), the data
 * version check, and GET /v1/traceability-matrix through Fastify (the route, its kept answer,
 * compression) both kept and right after a write: median of 10 after 2 warm-ups.
 * Usage: npx tsx apps/server/src/bench/traceability-bench.ts postgres://postgres@127.0.0.1:5432/postgres
 */

const REQUIREMENTS = 5_000;
const TESTS = 20_000;
const RESULTS_PER_TEST = Number(process.env.RESULTS_PER_TEST ?? 20);
const DB_NAME = scratchName("TRACEABILITY_BENCH_DB", "assay_traceability_bench", "tb_mine");

async function main() {
  await withScratchDatabase(DB_NAME, async (db) => {
    const started = performance.now();
    await db.pool.query(`
      INSERT INTO requirements (rms, summary, epic, type, position)
      SELECT 'RMS-' || n, 'Requirement ' || n, 'Epic ' || (n % 40), 'Story', n
      FROM generate_series(1, ${REQUIREMENTS}) n;
      INSERT INTO requirement_bugs (requirement_id, key, summary, status)
      SELECT id, 'NXL-' || id, 'Bug of ' || rms, 'Open' FROM requirements WHERE id % 7 = 0;
      INSERT INTO requirement_imports (source_kind, file_name, imported_by, requirements, bugs)
      VALUES ('file', 'bench.csv', 'bench', ${REQUIREMENTS}, 0);
      INSERT INTO tests (id, family, title, file)
      SELECT n, 'frontend', 'Test ' || n, 'tests/t' || n || '.spec.ts' FROM generate_series(1, ${TESTS}) n;
      INSERT INTO runs (id, test_run_key, family, test_run_name) OVERRIDING SYSTEM VALUE
      SELECT n, 'bench-run-' || n, 'frontend', 'Bench run ' || n FROM generate_series(1, ${RESULTS_PER_TEST}) n;
    `);
    await db.pool.query(`
      INSERT INTO results (run_id, run_at, test_run_test_id, test_id, status, name, tags, start_time, is_final)
      SELECT r, (SELECT created_at FROM runs WHERE id = r), 't' || t, t, CASE WHEN (t + r) % 9 = 0 THEN 'failed' ELSE 'passed' END, 'Test ' || t,
             ARRAY['@regression', '@RMS-' || (1 + t % ${REQUIREMENTS * 1.1}::int)],
             timestamptz '2026-01-01' + r * interval '1 day' + t * interval '1 second', true
      FROM generate_series(1, ${RESULTS_PER_TEST}) r, generate_series(1, ${TESTS}) t;
      INSERT INTO results (run_id, run_at, test_run_test_id, test_id, status, name, tags, start_time, is_final, attempt)
      SELECT 1, (SELECT created_at FROM runs WHERE id = 1), 't' || t || '-retry', t, 'failed', 'Test ' || t, '{}', timestamptz '2026-01-01', false, 1
      FROM generate_series(1, ${TESTS}) t;
      ANALYZE;
    `);
    const { rows } = await db.pool.query<{ n: string }>("SELECT count(*) AS n FROM results");
    out(
      `loaded ${REQUIREMENTS} requirements, ${TESTS} tests, ${rows[0]?.n} results in ${Math.round(performance.now() - started)} ms`,
    );
    const time = async (label: string, fn: () => Promise<unknown>) => {
      const { median, max } = await timed(fn);
      out(`${label}: median ${median.toFixed(1)} ms, max ${max.toFixed(1)} ms`);
    };
    const matrix = await traceabilityMatrix(db, DEFAULT_RMS_TAG_PATTERN);
    const covered = matrix.rows.filter((row) => row.testRuns.length > 0).length;
    out(`matrix: ${matrix.rows.length} rows, ${covered} covered`);
    await time("traceabilityMatrix (service)", () =>
      traceabilityMatrix(db, DEFAULT_RMS_TAG_PATTERN),
    );
    await time("listCoverage (SQL)", () => listCoverage(db, DEFAULT_RMS_TAG_PATTERN));
    await time("matrixDataVersion (SQL)", () => matrixDataVersion(db));
    await timeRoute(db, time);
  });
}

/** The route as a server answers it: JSON as kept, br as a browser asks, and after a write. */
async function timeRoute(
  db: Db,
  time: (label: string, fn: () => Promise<unknown>) => Promise<void>,
): Promise<void> {
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await registerCompression(app);
  await app.register(traceabilityRoutes({ db, rmsTagPattern: DEFAULT_RMS_TAG_PATTERN }));
  const get = async (headers: Record<string, string> = {}) => {
    const res = await app.inject({ method: "GET", url: "/v1/traceability-matrix", headers });
    if (res.statusCode !== 200) throw new Error(`GET answered ${res.statusCode}`);
    return res;
  };
  const first = await get({ "accept-encoding": "br" });
  out(`GET answer: ${(await get()).rawPayload.length} bytes, br ${first.rawPayload.length} bytes`);
  await time("GET /v1/traceability-matrix, kept", () => get());
  await time("GET /v1/traceability-matrix, kept, br", () => get({ "accept-encoding": "br" }));
  // A write the matrix depends on (a run's row, as every upload writes) before each call.
  let bump = 0;
  await time("GET after a write (built again), br", async () => {
    await db.pool.query("UPDATE runs SET test_run_name = $1 WHERE id = 1", [`Bench ${++bump}`]);
    return get({ "accept-encoding": "br" });
  });
  await app.close();
}

await main();
