import { chmod, mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { Cleanup } from "../bench/cleanup.js";
import { count, ms, say, step } from "../bench/output.js";
import { findTargets, serverDatabaseUrl, startWithDemo } from "./dataset.js";
import { datasetCounts, runsOfExecutor } from "./load-check.repo.js";
import { printLines, readersTable } from "./load-report.js";
import { runReaders, warmUp } from "./readers.js";
import {
  checkUploads,
  firstUploads,
  makeUploaders,
  runUploaders,
  UPLOADER_EXECUTOR,
} from "./uploaders.js";

const USAGE = `Usage: npm run load -- [--duration S] [--scenario a|b|both] [--readers N]
                     [--uploaders N] [--tests N] [--data-dir DIR] [--cpu-prof DIR]

Load test of a built Assay server on this machine (loopback only), over the demo data:
  A  N readers (default 50) for S seconds over a QA engineer's morning reads: p99 < 200 ms, 0 errors
  B  uploaders (default 8, each posting a JUnit report of 10,000 tests again and again through
     POST /v1/ingest/reports with a token) and N readers (default 40): reader p99 < 500 ms,
     0 errors, every acknowledged upload stored exactly once with its file's counts
Prints p50 / p95 / p99 and errors per route with PASS/FAIL. Exit code 0: all passed; 1: errors
or lost uploads; 2: only a latency target missed.

  --duration S     seconds per scenario (default 60; e.g. 10 for a short run)
  --scenario X     a, b or both (default both)
  --readers N      readers of scenario A (B uses 4/5 of it)
  --uploaders N    uploaders of scenario B
  --tests N        tests per uploaded report (default 10000)
  --data-dir DIR   keep the server's data folder there (the demo is loaded once, later runs reuse it)
  --cpu-prof DIR   write the server process's CPU profile (node --cpu-prof) there when it stops`;

interface Options {
  duration: number;
  scenario: "a" | "b" | "both";
  readers: number;
  uploaders: number;
  tests: number;
  dataDir?: string;
  cpuProf?: string;
  help: boolean;
}

function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`--${name} takes a whole number above 0, not "${value}"`);
  return n;
}

function options(): Options {
  const { values } = parseArgs({
    options: {
      duration: { type: "string" },
      scenario: { type: "string", default: "both" },
      readers: { type: "string" },
      uploaders: { type: "string" },
      tests: { type: "string" },
      "data-dir": { type: "string" },
      "cpu-prof": { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
  const scenario = values.scenario!;
  if (!["a", "b", "both"].includes(scenario))
    throw new Error(`--scenario takes a, b or both, not "${scenario}"`);
  return {
    duration: positive("duration", values.duration, 60),
    scenario: scenario as Options["scenario"],
    readers: positive("readers", values.readers, 50),
    uploaders: positive("uploaders", values.uploaders, 8),
    tests: positive("tests", values.tests, 10_000),
    dataDir: values["data-dir"],
    cpuProf: values["cpu-prof"] === undefined ? undefined : path.resolve(values["cpu-prof"]),
    help: values.help,
  };
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

/** Runs the scenarios; the exit code (0, 1 for errors or losses, 2 for a missed latency only). */
async function main(cleanup: Cleanup, opts: Options): Promise<number> {
  const scratch = await mkdtemp(path.join(tmpdir(), "assay-load-"));
  // PostgreSQL runs as the postgres user when this runs as root: it must enter this folder.
  await chmod(scratch, 0o711);
  cleanup.add(`folder ${scratch}`, () => rm(scratch, { recursive: true, force: true }));
  const dataDir = opts.dataDir ? path.resolve(opts.dataDir) : path.join(scratch, "data");
  step(`starting the server (data in ${dataDir})`);
  const nodeArgs = opts.cpuProf ? ["--cpu-prof", "--cpu-prof-dir", opts.cpuProf] : [];
  const server = await startWithDemo(dataDir, 60 * 60_000, 20 * 60_000, cleanup, nodeArgs);
  const databaseUrl = await serverDatabaseUrl(dataDir);
  const size = await datasetCounts(databaseUrl);
  step(
    `dataset: ${count(size.runs)} runs, ${count(size.results)} results, ${count(size.tests)} tests, ${count(size.attachments)} attachments`,
  );
  const targets = await findTargets(server.url);
  await warmUp(server.url, targets, 3);
  let errors = false;
  let latencyMissed = false;
  const verdicts: string[] = [];

  if (opts.scenario !== "b") {
    step(`scenario A: ${opts.readers} readers for ${opts.duration} s (load average ${load()})`);
    const samples = await runReaders(server.url, targets, opts.readers, opts.duration);
    const table = readersTable(samples, opts.duration, 200);
    say();
    say(`Scenario A: ${opts.readers} readers, ${opts.duration} s, load average after ${load()}`);
    printLines(table.lines);
    say();
    if (samples.some((s) => s.errors > 0)) errors = true;
    if (!table.pass) latencyMissed = true;
    verdicts.push(`A: ${table.pass ? "PASS" : "FAIL"}`);
  }

  if (opts.scenario !== "a") {
    const readers = Math.max(1, Math.round((opts.readers * 4) / 5));
    step(`writing ${opts.uploaders} JUnit reports of ${count(opts.tests)} tests`);
    const uploaders = await makeUploaders(scratch, opts.uploaders, opts.tests);
    // Runs an earlier load test left in a kept --data-dir are not this run's to account for.
    const earlier = new Set(
      (await runsOfExecutor(databaseUrl, UPLOADER_EXECUTOR)).map((r) => r.test_run_key),
    );
    const stored = async () =>
      (await runsOfExecutor(databaseUrl, UPLOADER_EXECUTOR)).filter(
        (r) => !earlier.has(r.test_run_key),
      );
    step(
      "first upload of each report (its tests enter the catalogue; its counts are the expected ones)",
    );
    await firstUploads(server.url, uploaders, stored);
    step(
      `scenario B: ${opts.uploaders} uploaders and ${readers} readers for ${opts.duration} s (load average ${load()})`,
    );
    const endAt = Date.now() + opts.duration * 1000;
    const [records, samples] = await Promise.all([
      runUploaders(server.url, uploaders, endAt),
      runReaders(server.url, targets, readers, opts.duration),
    ]);
    const check = checkUploads(uploaders, records, await stored());
    const table = readersTable(samples, opts.duration, 500);
    say();
    say(
      `Scenario B: ${opts.uploaders} uploaders + ${readers} readers, ${opts.duration} s, load average after ${load()}`,
    );
    printLines(table.lines);
    const uploadsPass = check.failed === 0 && check.lost.length === 0 && check.extra.length === 0;
    say(
      `uploads: ${check.uploads} sent, ${check.acknowledged} acknowledged (median ${ms(check.medianMs)}), ${check.failed} failed, ${check.lost.length} lost or wrong, ${check.extra.length} unexplained runs: ${uploadsPass ? "PASS" : "FAIL"}`,
    );
    for (const r of records.filter((r) => r.status !== 201))
      say(`  failed upload: ${r.status} ${r.error}`);
    for (const line of [
      ...check.lost,
      ...check.extra.map((k) => `${k}: a run no answer accounts for`),
    ])
      say(`  ${line}`);
    say();
    if (!uploadsPass || samples.some((s) => s.errors > 0)) errors = true;
    if (!table.pass) latencyMissed = true;
    verdicts.push(`B: ${table.pass && uploadsPass ? "PASS" : "FAIL"}`);
  }

  say(`Verdict: ${verdicts.join(", ")} (load average ${load()}, 2 cores shared with the server)`);
  await server.stop();
  return errors ? 1 : latencyMissed ? 2 : 0;
}

const opts = (() => {
  try {
    return options();
  } catch (error) {
    say(`${(error as Error).message}\n\n${USAGE}`);
    process.exit(64);
  }
})();
if (opts.help) {
  say(USAGE);
  process.exit(0);
}
const cleanup = new Cleanup();
const stop = (code: number) => () => {
  step(code === 130 ? "interrupted: cleaning up" : "stopping: cleaning up");
  void cleanup.run().finally(() => process.exit(code));
};
process.once("SIGINT", stop(130));
process.once("SIGTERM", stop(143));
// Bounded whatever happens: the demo load, two scenarios and the check fit well within this.
const limit = setTimeout(() => {
  say("the load test took longer than 45 minutes: stopping");
  stop(1)();
}, 45 * 60_000);
limit.unref();
main(cleanup, opts).then(
  (code) => cleanup.run().then(() => process.exit(code)),
  (error: unknown) => {
    say(`load test failed: ${(error as Error).stack ?? String(error)}`);
    stop(1)();
  },
);
