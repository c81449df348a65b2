import { performance } from "node:perf_hooks";
import Fastify from "fastify";
import { serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import { out, scratchName, timed, withScratchDatabase } from "./scratch-database.js";
import { diffRoutes } from "../modules/diff/diff.routes.js";
import { diffRuns } from "../modules/diff/diff.service.js";

/*
 * The run diff at the size issue #35 names: two frontend runs of 14,000 final results each (plus
 * a retry for every flaky one), among OTHER_RUNS more runs of the same size so that the results
 * table is not just the two. Between the two runs: 5 % of tests fail in each (different ones
 * mostly), 2 % flaky, 5 % added and removed, 10 % slower. Times diffRuns (the two reads and the
 * comparison) and GET /v1/runs/{a}/diff/{b} through Fastify (with the answer's serialisation):
 * median of 10 after 2 warm-ups. Target: ≤ 100 ms.
 * Usage: npm run bench:diff [-- postgres://postgres@127.0.0.1:5432/postgres]
 */

const TESTS = 14_000;
const OTHER_RUNS = Number(process.env.OTHER_RUNS ?? 30);
const DB_NAME = scratchName("DIFF_BENCH_DB", "assay_diff_bench", "db_mine");
const SETTINGS = { slowerPercent: 20, slowerMs: 500 };

async function main() {
  await withScratchDatabase(DB_NAME, async (db) => {
    const started = performance.now();
    const runs = OTHER_RUNS + 2;
    // Run r holds tests r*700 .. r*700 + 14,000: consecutive runs share 95 % of their tests.
    await db.pool.query(`
      INSERT INTO tests (id, family, title, file)
      SELECT n, 'frontend', 'Feature ' || (n / 50) || ' scenario ' || n, 'features/f' || (n / 50)
      FROM generate_series(1, ${TESTS + runs * 700}) n;
      INSERT INTO runs (id, test_run_key, family, test_run_name, created_at) OVERRIDING SYSTEM VALUE
      SELECT n, 'bench-run-' || n, 'frontend', 'Bench run ' || n,
             timestamptz '2026-01-01' + n * interval '1 day'
      FROM generate_series(1, ${runs}) n;
    `);
    await db.pool.query(`
      INSERT INTO results (run_id, test_run_test_id, test_id, status, flaky, name, start_time,
                           duration_ms, error_message, is_final, run_at)
      SELECT r, 't' || t, t,
             CASE WHEN (t * 7 + r * 13) % 20 = 0 THEN 'failed' ELSE 'passed' END,
             (t * 3 + r) % 50 = 0, 'Feature ' || (t / 50) || ' scenario ' || t,
             timestamptz '2026-01-01' + r * interval '1 day' + t * interval '1 second',
             CASE WHEN (t + r) % 10 = 0 THEN 3000 ELSE 1000 END + (t % 100),
             CASE WHEN (t * 7 + r * 13) % 20 = 0 THEN 'AssertionError: expected ' || t END, true,
             timestamptz '2026-01-01' + r * interval '1 day'
      FROM generate_series(1, ${runs}) r,
           LATERAL generate_series(r * 700, r * 700 + ${TESTS - 1}) t;
      INSERT INTO results (run_id, test_run_test_id, test_id, status, name, is_final, attempt, run_at)
      SELECT run_id, test_run_test_id || '-try0', test_id, 'failed', name, false, 0, run_at
      FROM results WHERE flaky;
      ANALYZE;
    `);
    const { rows } = await db.pool.query<{ n: string }>("SELECT count(*) AS n FROM results");
    out(`loaded ${runs} runs of ${TESTS} tests, ${rows[0]?.n} results in ${ms(started)} ms`);
    const [a, b] = [`bench-run-${runs - 1}`, `bench-run-${runs}`];
    const diff = await diffRuns(db, SETTINGS, a, b);
    out(
      `diff ${a} → ${b}: ` +
        (
          [
            "newFailures",
            "fixed",
            "stillFailing",
            "newlyFlaky",
            "slower",
            "added",
            "removed",
          ] as const
        )
          .map((section) => `${section} ${diff[section].length}`)
          .join(", "),
    );
    await time("diffRuns (service: two reads + compare)", () => diffRuns(db, SETTINGS, a, b));
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await app.register(diffRoutes({ db, settings: SETTINGS }));
    const get = async () => {
      const res = await app.inject({ method: "GET", url: `/v1/runs/${a}/diff/${b}` });
      if (res.statusCode !== 200) throw new Error(`GET answered ${res.statusCode}`);
      return res;
    };
    out(`GET answer: ${(await get()).rawPayload.length} bytes`);
    await time(`GET /v1/runs/{a}/diff/{b}`, get);
    await app.close();
  });
}

const ms = (since: number) => Math.round(performance.now() - since);

async function time(label: string, fn: () => Promise<unknown>): Promise<void> {
  const { median, max } = await timed(fn);
  out(`${label}: median ${median.toFixed(1)} ms, max ${max.toFixed(1)} ms`);
}

await main();
