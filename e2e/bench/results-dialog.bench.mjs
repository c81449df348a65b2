// Benchmark of the Frontend results dialog on a large run, in real Chromium (not a timed test).
//
//   npm run build && node e2e/bench/results-dialog.bench.mjs [results=10000] [days=4]
//
// It starts the built server (embedded PostgreSQL in a temporary folder), sends `days` daily
// runs of `results` tests each through the live ingest API (so the newest run has a history),
// then opens the newest run the way a person does and prints, in milliseconds: the API answers,
// the open from the list to the first card, the Hide toggles, the failure filter, and scrolling.
import { spawn } from "node:child_process";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import { tmpdir, cpus, loadavg } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const RESULTS = Number(process.argv[2] ?? 10_000);
const DAYS = Number(process.argv[3] ?? 4);
const TOKEN = "bench-ingest-token-0123456789abcdef";
const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const MAJOR = ["@login", "@econsent", "@patient", "@diary", "@visit", "@admin", "@reports"];

async function freePort() {
  const server = net.createServer().listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function startServer() {
  const dataDir = await mkdtemp(path.join(tmpdir(), "assay-bench-"));
  await chmod(dataDir, 0o711);
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(repoRoot, "apps/cli/dist/main.js"), "start"], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? "",
      PORT: String(port),
      ASSAY_DATA_DIR: dataDir,
      ASSAY_INGEST_TOKEN: TOKEN,
      ASSAY_DEMO: "0",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let tries = 0; tries < 360; tries++) {
    if (child.exitCode !== null) throw new Error("the server exited early");
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const stop = async () => {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
    await rm(dataDir, { recursive: true, force: true });
  };
  return { url, stop };
}

async function post(url, body) {
  const res = await fetch(url, {
    method: "POST",
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST ${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Test i's outcome on a day: about 8% fail, a third of those for days on end; 2% pending. */
function outcome(i, day) {
  if (i % 50 === 7) return "pending";
  if (i % 40 === 3) return "failed";
  return (i * 7 + day * 13) % 23 === 0 ? "failed" : "passed";
}

function result(i, day) {
  const status = outcome(i, day);
  const failed = status === "failed";
  return {
    test_run_test_id: `t${i}`,
    name: `Scenario ${i}: the patient completes step ${i % 17}`,
    title: `Scenario ${i}: the patient completes step ${i % 17}`,
    scenario: `Feature ${i % 120}`,
    file: `features/area-${i % 40}/feature-${i % 120}.feature`,
    tags: [MAJOR[i % 9] ?? "@misc", `@TC${100000 + i}`],
    status: status === "passed" ? "passed" : "failed",
    error_message: failed
      ? `Timed out after 30000 ms waiting for [data-test=submit-${i % 13}], see nxl-${i % 997}\n    at Page.click (features/support/page.ts:${i % 300}:12)`
      : status === "pending"
        ? "Pending reason == waiting for the translation service"
        : undefined,
    start_time: new Date(Date.UTC(2026, 4, day, 6, 0, 0) + i * 200).toISOString(),
    duration_ms: 1_000 + ((i * 37) % 20_000),
    chrome_version: "126.0.6478.126",
    platform: "linux",
    commit_hash: "9f8e7d6c5b4a39281706f5e4d3c2b1a098765432",
    nora_site: "dev1.nextgen.example.com",
  };
}

async function uploadDay(url, day) {
  const run = await post(`${url}/v1/ingest/runs`, {
    family: "frontend",
    test_run_name: `2026-05-0${day} 06:00 bench`,
    nora_site: "dev1.nextgen.example.com",
    executor: "bench",
    is_next_gen: true,
  });
  const key = run.test_run_key;
  for (let from = 0; from < RESULTS; from += 2_000) {
    const batch = [];
    for (let i = from; i < Math.min(RESULTS, from + 2_000); i++) batch.push(result(i, day));
    await post(`${url}/v1/ingest/runs/${key}/results`, batch);
  }
  await post(`${url}/v1/ingest/runs/${key}/finish`, {});
  return key;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x) => Math.round(x);

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
  console.log(
    `Machine: ${cpus().length} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
  // BENCH_SERVER_URL: measure a server already running with this token; BENCH_RUN_KEY: and a
  // run already there (no upload).
  const server = process.env.BENCH_SERVER_URL
    ? { url: process.env.BENCH_SERVER_URL, stop: async () => undefined }
    : await startServer();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  try {
    const t0 = performance.now();
    let key = process.env.BENCH_RUN_KEY ?? "";
    if (!key) {
      for (let day = 1; day <= DAYS; day++) key = await uploadDay(server.url, day);
      console.log(
        `Uploaded ${DAYS} runs of ${RESULTS} results in ${round(performance.now() - t0)} ms`,
      );
    }

    const run = await timeFetch(`${server.url}/v1/test-runs/${key}`);
    const history = await timeFetch(`${server.url}/v1/test-runs/${key}/history?limit=5`);
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.addInitScript(pageHelpers);

    const opens = [];
    for (let n = 0; n < 5; n++) {
      await page.goto(`${server.url}/test_runs`);
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
    await browser.close();
    await server.stop();
  }
}

await main();
