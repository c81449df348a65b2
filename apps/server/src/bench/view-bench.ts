import { performance } from "node:perf_hooks";
import { ViewResultsBuilder } from "../modules/runs/view/view-columns-builder.js";
import type { ResultInput } from "../modules/runs/view/view-columns.js";
import { out } from "./scratch-database.js";

/*
 * The run view's columns (view-columns.ts) of a 100,000-result frontend run, in memory, without
 * the database: the build from its inputs, the heap the built view keeps (which every full
 * collection marks again, in the middle of the next upload too), a locate's scan of every
 * result's test_run_test_id and 6,000 rows made. Five rounds; the first is cold.
 * Usage: npm run bench:view [-- RESULTS]
 */

const RESULTS = Number(process.argv[2] ?? 100_000);
const ROUNDS = 5;

function input(i: number): ResultInput {
  const failed = i % 10 === 0;
  return {
    id: 1_000_000 + i,
    test_run_test_id: `${1_000_000 + i}-${i}`,
    test_id: i,
    name: `com.example.suite${i % 300}.Test${i}`,
    title: `checks that the page number ${i} renders its widgets`,
    scenario: `Scenario ${i % 500}`,
    status: failed ? "failed" : "passed",
    raw: failed ? "failed" : "passed",
    pending: false,
    start_ms: 1.78e12 + i * 1000,
    duration_ms: i % 1000,
    tags: ["@smoke", `@suite${i % 20}`],
    pending_reason: null,
    flaky: false,
    error_message: failed ? `expected ${i} but got ${i + 1} at line ${i % 90}` : null,
    error_cut: false,
    tickets: [],
    nora_site: "dev1.example.com",
    chrome_version: "126.0.6478.126",
    platform: "linux",
    commit_hash: "d11ebd8f61",
    screenshot: failed ? `attachments/2026/11/${i}.png` : null,
  };
}

/** The view built, and how long that took: the builder is garbage once this returns. */
function build() {
  const started = performance.now();
  const builder = new ViewResultsBuilder("frontend", (tag) => tag.toLowerCase());
  for (let i = 0; i < RESULTS; i++) builder.add(input(i));
  const view = builder.done();
  return { view, buildMs: performance.now() - started };
}

const exposed = (globalThis as { gc?: () => void }).gc;
if (!exposed) throw new Error("run with node --expose-gc (npm run bench:view does)");
const gc = () => {
  exposed();
  exposed();
};
const kept: unknown[] = [];
const last = `${1_000_000 + RESULTS - 1}-${RESULTS - 1}`;
for (let round = 1; round <= ROUNDS; round++) {
  gc();
  const before = process.memoryUsage().heapUsed;
  const { view, buildMs } = build();
  kept.push(view);
  gc();
  const heapMb = (process.memoryUsage().heapUsed - before) / 1e6;
  const scanStarted = performance.now();
  let found = -1;
  for (let i = 0; i < view.length; i++) if (view.hasTestRunTestId(i, last)) found = i;
  const scanMs = performance.now() - scanStarted;
  if (found !== RESULTS - 1) throw new Error(`the locate found ${found}, not ${RESULTS - 1}`);
  const rowsStarted = performance.now();
  for (let i = 0; i < 6000; i++) view.rowOf(i);
  const rowsMs = performance.now() - rowsStarted;
  out(
    `round ${round}: build ${buildMs.toFixed(0)} ms, heap kept ${heapMb.toFixed(1)} MB ` +
      `(estimated ${(view.bytes / 1e6).toFixed(1)} MB), locate scan ${scanMs.toFixed(1)} ms, ` +
      `6,000 rows ${rowsMs.toFixed(1)} ms`,
  );
}
