// What the browser benchmarks share (large-runs.bench.mjs, results-dialog.bench.mjs): the built
// server on a free port with its own data folder (or BENCH_SERVER_URL, a server already
// running), Chromium, the machine's line, and runs sent through the live ingest API.
import { spawn } from "node:child_process";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

export const TOKEN = process.env.BENCH_TOKEN ?? "bench-ingest-token-0123456789abcdef";
const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const MAJOR = ["@login", "@econsent", "@patient", "@diary", "@visit", "@admin", "@reports"];
export const NORA_SITE = "dev1.nextgen.example.com";

export const round = (x) => Math.round(x);
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function freePort() {
  const server = net.createServer().listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `assay start` from the build, without demo data, ready to ingest with TOKEN (2 minutes at most). */
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
  for (let tries = 0; tries < 480; tries++) {
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

/**
 * Prints the machine's line, then starts the server (or takes BENCH_SERVER_URL) and Chromium;
 * `stop` closes both.
 */
export async function startBench() {
  console.log(
    `Machine: ${cpus().length} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
  const server = process.env.BENCH_SERVER_URL
    ? { url: process.env.BENCH_SERVER_URL, stop: async () => undefined }
    : await startServer();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  const stop = async () => {
    await browser.close();
    await server.stop();
  };
  return { url: server.url, browser, stop };
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
export function outcome(i, day) {
  if (i % 50 === 7) return "pending";
  if (i % 40 === 3) return "failed";
  return (i * 7 + day * 13) % 23 === 0 ? "failed" : "passed";
}

/** The major area tag of test i (two in nine have none of the seven: @misc). */
export const majorTag = (i) => MAJOR[i % 9] ?? "@misc";

/** A daily frontend (Cucumber) result of test i on a day of May 2026. */
export function frontendResult(i, day) {
  const status = outcome(i, day);
  return {
    test_run_test_id: `t${i}`,
    name: `Scenario ${i}: the patient completes step ${i % 17}`,
    title: `Scenario ${i}: the patient completes step ${i % 17}`,
    scenario: `Feature ${i % 120}`,
    file: `features/area-${i % 40}/feature-${i % 120}.feature`,
    tags: [majorTag(i), `@TC${100000 + i}`],
    status: status === "passed" ? "passed" : "failed",
    error_message:
      status === "failed"
        ? `Timed out after 30000 ms waiting for [data-test=submit-${i % 13}], see nxl-${i % 997}\n    at Page.click (features/support/page.ts:${i % 300}:12)`
        : status === "pending"
          ? "Pending reason == waiting for the translation service"
          : undefined,
    start_time: new Date(Date.UTC(2026, 4, day, 6, 0, 0) + i * 200).toISOString(),
    duration_ms: 1_000 + ((i * 37) % 20_000),
    chrome_version: "126.0.6478.126",
    platform: "linux",
    commit_hash: "9f8e7d6c5b4a39281706f5e4d3c2b1a098765432",
    nora_site: NORA_SITE,
  };
}

/** Sends a run of `count` results, `make(i)` each, in batches of 2,000; answers its key. */
export async function uploadRun(url, family, name, count, make) {
  const run = await post(`${url}/v1/ingest/runs`, {
    family,
    test_run_name: name,
    executor: "bench",
    ...(family === "frontend" ? { nora_site: NORA_SITE, is_next_gen: true } : {}),
  });
  const key = run.test_run_key;
  for (let from = 0; from < count; from += 2_000) {
    const batch = [];
    for (let i = from; i < Math.min(count, from + 2_000); i++) batch.push(make(i));
    await post(`${url}/v1/ingest/runs/${key}/results`, batch);
  }
  await post(`${url}/v1/ingest/runs/${key}/finish`, {});
  return key;
}
