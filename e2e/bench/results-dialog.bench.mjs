// Benchmark of the Frontend results dialog on a large run, in real Chromium (not a timed test).
//
//   npm run build && node e2e/bench/results-dialog.bench.mjs [results=10000] [days=4]
//
// It starts the built server (embedded PostgreSQL in a temporary folder), sends `days` daily
// runs of `results` tests each through the live ingest API (so the newest run has a history),
// then opens the newest run the way a person does and prints, in milliseconds: the API answers,
// the open from the list to the first card, the Hide toggles, the failure filter, and scrolling.
import { frontendResult, median, round, startBench, uploadRun } from "./bench-support.mjs";

const RESULTS = Number(process.argv[2] ?? 10_000);
const DAYS = Number(process.argv[3] ?? 4);

const uploadDay = (url, day) =>
  uploadRun(url, "frontend", `2026-05-0${day} 06:00 bench`, RESULTS, (i) => frontendResult(i, day));

async function timeFetch(url, times = 5) {
  const samples = [];
  let bytes = 0;
  for (let n = 0; n < times; n++) {
    const t0 = performance.now();
    const res = await fetch(url);
    bytes = (await res.arrayBuffer()).byteLength;
    samples.push(performance.now() - t0);
  }
  return { median: round(median(samples)), bytes };
}

// Page-side helpers: they run in Chromium, where the DOM is globalThis.
const pageHelpers = () => {
  const doc = globalThis.document;
  const frame = () => new Promise((resolve) => globalThis.requestAnimationFrame(resolve));
  const shown = () =>
    doc.querySelector("[role=dialog]")?.textContent?.match(/Showing [\d,]+ of/)?.[0];
  globalThis.bench = {
    /** From a click on the run's link to the first card painted. */
    async open(name) {
      const link = [...doc.querySelectorAll("a")].find((a) => a.textContent === name);
      const t0 = performance.now();
      link.click();
      while (!doc.querySelector("[role=feed] article")) await frame();
      await frame();
      return performance.now() - t0;
    },
    /** Clicks an element and waits for the "Showing n of m" count to change and paint. */
    async change(selector) {
      const before = shown();
      const t0 = performance.now();
      doc.querySelector(selector).click();
      while (shown() === before) await frame();
      await frame();
      return performance.now() - t0;
    },
    /** Scrolls the result list 300 px a frame and returns the frame durations. */
    async scroll(frames) {
      const feed = doc.querySelector("[role=feed]");
      const durations = [];
      let last = performance.now();
      for (let n = 0; n < frames; n++) {
        feed.scrollTop += 300;
        await frame();
        const now = performance.now();
        durations.push(now - last);
        last = now;
      }
      return { durations, cards: feed.querySelectorAll("article").length };
    },
  };
};

async function main() {
  // BENCH_SERVER_URL: measure a server already running with this token; BENCH_RUN_KEY: and a
  // run already there (no upload).
  const { url, browser, stop } = await startBench();
  try {
    const t0 = performance.now();
    let key = process.env.BENCH_RUN_KEY ?? "";
    if (!key) {
      for (let day = 1; day <= DAYS; day++) key = await uploadDay(url, day);
      console.log(
        `Uploaded ${DAYS} runs of ${RESULTS} results in ${round(performance.now() - t0)} ms`,
      );
    }

    const run = await timeFetch(`${url}/v1/test-runs/${key}`);
    const history = await timeFetch(`${url}/v1/test-runs/${key}/history?limit=5`);
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.addInitScript(pageHelpers);

    const opens = [];
    for (let n = 0; n < 5; n++) {
      await page.goto(`${url}/test_runs`);
      await page.getByRole("link", { name: `2026-05-0${DAYS} 06:00 bench` }).waitFor();
      opens.push(
        await page.evaluate((name) => globalThis.bench.open(name), `2026-05-0${DAYS} 06:00 bench`),
      );
    }
    await page.getByRole("list", { name: "Recent results" }).first().waitFor();

    const toggles = [];
    for (const status of [
      "passed",
      "passed",
      "skipped",
      "skipped",
      "failed",
      "failed",
      "passed",
      "passed",
    ]) {
      toggles.push(
        await page.evaluate(
          (s) => globalThis.bench.change(`input[aria-label="Hide ${s} results"]`),
          status,
        ),
      );
    }
    const filters = [];
    const FILTERS = [
      ["New Failure", "new_failure"],
      ["Failed for three days", "failed_three_days"],
      ["All results", "all"],
    ];
    for (const [label, value] of FILTERS) {
      await page.getByRole("combobox", { name: "Filter Failure List" }).click();
      await page.getByRole("option", { name: label }).waitFor();
      const selector = `li[role=option][data-value="${value}"]`;
      filters.push(await page.evaluate((s) => globalThis.bench.change(s), selector));
    }
    await page.getByRole("switch", { name: "Hide passed results" }).click();
    const { durations, cards } = await page.evaluate(() => globalThis.bench.scroll(240));
    const sorted = [...durations].sort((a, b) => a - b);

    console.log("\n| Measure | ms |\n|---|---|");
    console.log(
      `| GET /v1/test-runs/{key} (${(run.bytes / 1e6).toFixed(1)} MB), median of 5 | ${run.median} |`,
    );
    console.log(
      `| GET /v1/test-runs/{key}/history?limit=5 (${(history.bytes / 1e6).toFixed(1)} MB), median of 5 | ${history.median} |`,
    );
    console.log(
      `| Open from the list to the first card painted, median of 5 (each) | ${round(median(opens))} (${opens.map(round).join(", ")}) |`,
    );
    console.log(
      `| Hide switch to list updated and painted, median (max) of ${toggles.length} | ${round(median(toggles))} (${round(Math.max(...toggles))}) |`,
    );
    console.log(
      `| Filter Failure List option to list updated (New Failure, three days, all) | ${filters.map(round).join(", ")} |`,
    );
    console.log(
      `| Scrolling ${durations.length} frames of 300 px: median (p95, max) frame | ${sorted[Math.floor(sorted.length / 2)].toFixed(1)} (${sorted[Math.floor(sorted.length * 0.95)].toFixed(1)}, ${sorted.at(-1).toFixed(1)}) |`,
    );
    console.log(`| Cards in the page while scrolling ${RESULTS} results | ${cards} |`);
  } finally {
    await stop();
  }
}

await main();
