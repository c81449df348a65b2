// Browser benchmark of the results dialogs on large runs (issue #24), in real Chromium.
//
//   npm run build && node e2e/bench/large-runs.bench.mjs [sizes=100000,14000]
//
// It starts the built server (embedded PostgreSQL in a temporary folder), sends through the live
// ingest API, for each size, two daily frontend runs (the newest has a history) and one backend
// run with stacks, console logs and scripts, then opens each newest run cold (a new browser
// context: no cache, no prefetch) straight at its dialog URL and prints: time from navigation
// to the first result row painted, bytes over the wire until then (encoded, as the network
// carried them, every request of the page included), the JavaScript heap after opening (after a
// garbage collection), each Hide switch until the list is updated and painted, and for
// comparison the size of the spec's whole run detail (GET /v1/test-runs/{key}), br-compressed
// and not. BENCH_SERVER_URL and BENCH_TOKEN measure a server already running.
import {
  frontendResult,
  majorTag,
  median,
  outcome,
  round,
  startBench,
  uploadRun,
} from "./bench-support.mjs";

const SIZES = (process.argv[2] ?? "100000,14000").split(",").map(Number);
const mb = (bytes) => (bytes / 1e6).toFixed(2);

/** An API test: its stack, console log and script are what made the spec's detail 56 MB. */
function backendResult(i) {
  const status = outcome(i, 1);
  const failed = status === "failed";
  return {
    test_run_test_id: `api${i}`,
    name: `GET /v1/patients/${i % 500} answers 200 for case ${i}`,
    title: `GET /v1/patients/${i % 500} answers 200 for case ${i}`,
    scenario: `patients-${i % 60}`,
    file: `test/patients-${i % 60}.spec.ts`,
    tags: [majorTag(i)],
    status: status === "passed" ? "passed" : "failed",
    error_name: failed ? "AssertionError" : undefined,
    error_message: failed
      ? `expected 500 to equal 200 (nxl-${i % 997})`
      : status === "pending"
        ? "Pending reason == blocked by the sandbox"
        : undefined,
    error_stack: failed
      ? `AssertionError: expected 500 to equal 200\n    at Context.<anonymous> (test/patients-${i % 60}.spec.ts:${i % 200}:18)\n    at process.processImmediate (node:internal/timers:476:21)`
      : undefined,
    console_log: `GET https://api.example.com/v1/patients/${i % 500} -> ${failed ? 500 : 200} in ${i % 900} ms\nasserting status and body schema for case ${i}`,
    body: `it('answers 200 for case ${i}', async () => {\n  const res = await api.get('/v1/patients/${i % 500}');\n  expect(res.status).to.equal(200);\n  expect(res.body).to.be.jsonSchema(patientSchema);\n});`,
    start_time: new Date(Date.UTC(2026, 4, 1, 6, 0, 0) + i * 50).toISOString(),
    duration_ms: 20 + ((i * 37) % 2_000),
  };
}

/** The spec's whole run detail, as API clients get it: bytes compressed and not. */
async function specDetailSize(url) {
  const plain = await fetch(url, { headers: { "accept-encoding": "identity" } });
  const plainBytes = (await plain.arrayBuffer()).byteLength;
  const t0 = performance.now();
  const res = await fetch(url, { headers: { "accept-encoding": "br" }, decompress: false });
  const encoded = Number(res.headers.get("content-length") ?? 0);
  await res.arrayBuffer();
  return { plainBytes, encoded, ms: round(performance.now() - t0) };
}

// In the page: the time (from navigation start) the first result row was painted.
const watchFirstRow = () => {
  const found = () => globalThis.document.querySelector("[role=feed] article");
  const check = () => {
    if (found()) {
      globalThis.requestAnimationFrame(() => (globalThis.firstRowAt = performance.now()));
      return;
    }
    globalThis.requestAnimationFrame(check);
  };
  globalThis.requestAnimationFrame(check);
};

/** Clicks a Hide switch and waits until "Showing n of m" changes and is painted. */
async function toggle(page, label) {
  return page.evaluate(async (name) => {
    const doc = globalThis.document;
    const frame = () => new Promise((resolve) => globalThis.requestAnimationFrame(resolve));
    const shown = () =>
      doc.querySelector("[role=dialog]")?.textContent?.match(/Showing [\d,]+ of/)?.[0];
    const before = shown();
    const t0 = performance.now();
    doc.querySelector(`input[aria-label="${name}"]`).click();
    while (shown() === before) await frame();
    await frame();
    return performance.now() - t0;
  }, label);
}

async function measureOpen(browser, url, switches) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  let bytes = 0;
  let requests = 0;
  cdp.on("Network.loadingFinished", (event) => {
    bytes += event.encodedDataLength;
    requests++;
  });
  await page.addInitScript(watchFirstRow);
  await page.goto(url);
  await page.waitForFunction(() => globalThis.firstRowAt !== undefined, null, { timeout: 120_000 });
  const firstRowMs = await page.evaluate(() => globalThis.firstRowAt);
  const bytesToFirstRow = bytes;
  const requestsToFirstRow = requests;
  await page.waitForTimeout(1_000);
  await cdp.send("HeapProfiler.collectGarbage");
  const heap = await cdp.send("Runtime.getHeapUsage");
  const toggles = [];
  for (const label of switches) toggles.push(await toggle(page, label));
  // Scrolling far down loads the pages on the way (and only those).
  const before = bytes;
  await page.evaluate(async () => {
    const feed = globalThis.document.querySelector("[role=feed]");
    for (let n = 0; n < 60; n++) {
      feed.scrollTop += 2_000;
      await new Promise((resolve) => setTimeout(resolve, 16));
    }
  });
  await page.waitForTimeout(1_500);
  await cdp.send("HeapProfiler.collectGarbage");
  const heapAfterScroll = await cdp.send("Runtime.getHeapUsage");
  await context.close();
  return {
    firstRowMs,
    bytesToFirstRow,
    requestsToFirstRow,
    heapUsed: heap.usedSize,
    toggles,
    scrollBytes: bytes - before,
    heapAfterScroll: heapAfterScroll.usedSize,
  };
}

const FRONTEND_SWITCHES = [
  "Hide passed results",
  "Hide passed results",
  "Hide failed results",
  "Hide failed results",
  "Hide skipped results",
  "Hide skipped results",
];
const BACKEND_SWITCHES = [
  "Hide failed results",
  "Hide failed results",
  "Hide failed results",
  "Hide failed results",
];

function report(label, open, spec, runs) {
  console.log(`\n### ${label}\n`);
  console.log("| Measure | Value |\n|---|---|");
  console.log(
    `| Spec run detail (GET ${spec.path}) | ${mb(spec.plainBytes)} MB, ${mb(spec.encoded)} MB with br, ${spec.ms} ms |`,
  );
  for (const [n, run] of runs.entries()) {
    console.log(`| Cold open ${n + 1}: first result row painted | ${round(run.firstRowMs)} ms |`);
  }
  console.log(
    `| First row, median of ${runs.length} | ${round(median(runs.map((r) => r.firstRowMs)))} ms |`,
  );
  console.log(
    `| Bytes over the wire until the first row (${open.requestsToFirstRow} requests, page and app included) | ${mb(open.bytesToFirstRow)} MB |`,
  );
  console.log(`| JS heap after opening (after GC) | ${mb(open.heapUsed)} MB |`);
  console.log(
    `| Hide switch to list updated and painted, median (max) of ${open.toggles.length} | ${round(median(open.toggles))} (${round(Math.max(...open.toggles))}) ms |`,
  );
  console.log(
    `| Scrolling 60 × 2,000 px: bytes of the pages loaded; JS heap after (GC) | ${mb(open.scrollBytes)} MB; ${mb(open.heapAfterScroll)} MB |`,
  );
}

async function main() {
  const { url, browser, stop } = await startBench();
  try {
    for (const size of SIZES) {
      const t0 = performance.now();
      let key = "";
      for (let day = 1; day <= 2; day++) {
        key = await uploadRun(url, "frontend", `bench ${size} day ${day}`, size, (i) =>
          frontendResult(i, day),
        );
      }
      const apiKey = await uploadRun(url, "backend", `bench api ${size}`, size, backendResult);
      console.log(
        `\nUploaded 2 frontend runs and 1 backend run of ${size} results in ${round(performance.now() - t0)} ms`,
      );

      const frontendSpec = {
        path: "/v1/test-runs/{key}",
        ...(await specDetailSize(`${url}/v1/test-runs/${key}`)),
      };
      const backendSpec = {
        path: "/v1/api-test-run/{key}",
        ...(await specDetailSize(`${url}/v1/api-test-run/${apiKey}`)),
      };
      // Each open is cold for the browser; the first also for the server's run view.
      const frontendRuns = [];
      for (let n = 0; n < 3; n++) {
        frontendRuns.push(
          await measureOpen(browser, `${url}/test_runs/${key}?hide=`, FRONTEND_SWITCHES),
        );
      }
      report(
        `Frontend run, ${size.toLocaleString("en-US")} results`,
        frontendRuns[0],
        frontendSpec,
        frontendRuns,
      );
      const backendRuns = [];
      for (let n = 0; n < 3; n++) {
        backendRuns.push(
          await measureOpen(browser, `${url}/test_runs/${apiKey}?be=1`, BACKEND_SWITCHES),
        );
      }
      report(
        `Backend run, ${size.toLocaleString("en-US")} results`,
        backendRuns[0],
        backendSpec,
        backendRuns,
      );
    }
  } finally {
    await stop();
  }
}

await main();
