import { chmod, mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import pg from "pg";
import type { IngestResponse } from "@assay/core";
import { createDb, type Db } from "../db/pool.js";
import { migrate } from "../db/migrate.js";
import { recordRunFailures } from "../modules/triage/fingerprints.service.js";
import { forgetAll } from "../modules/triage/fingerprints.repo.js";
import { failureGroups, runFailureGroups } from "../modules/triage/triage.service.js";
import { Cleanup } from "./cleanup.js";
import { externalCluster } from "./databases.js";
import { IngestServer } from "./ingest-server.js";
import { cpuMsOf } from "./procstat.js";
import { writeJunitReport } from "./junit-gen.js";
import { callTimes, median, say, step } from "./output.js";
import { timeQueries } from "./phases.js";
import { BENCH_TOKEN } from "./server-process.js";
import { fillTriageStore, writeAllFailedReport } from "./triage-data.js";

/*
 * Triage's figures (issue 34, docs/performance.md "Triage"), against a real server process with
 * its embedded PostgreSQL, and a scratch database of the PostgreSQL given (it needs CREATEDB):
 * 1. what fingerprinting adds to the bench's 100k-test JUnit upload (the ingest bench's file,
 *    10% failed): the upload end to end, then triage's step for that run alone as the server runs
 *    it after the upload's answer (the failures fingerprinted by the parse workers given), timed statement
 *    by statement in a transaction that is rolled back (its tables emptied first, as before the
 *    run's first upload), and the CPU of the workers' fingerprinting;
 * 2. a 14,000-result run whose every test failed: its groups answer and a page's causes, over HTTP;
 * 3. the Failures screen's answer over triage's tables as 730 daily runs of 13,700 results
 *    (10,001,000 results, 10% failed) leave them.
 * Usage: npm run bench:triage -- [postgres://postgres@127.0.0.1:5432/postgres] [--only ingest|groups|failures]
 */

const args = process.argv.slice(2);
const admin =
  args.find((arg) => arg.startsWith("postgres")) ?? "postgres://postgres@127.0.0.1:5432/postgres";
const only = args.includes("--only") ? args[args.indexOf("--only") + 1] : undefined;
const ms = (value: number) => `${value.toFixed(1)} ms`;

/**
 * Wall and CPU time (this process and the one PostgreSQL backend of `db`) per call, median of
 * `rounds` after one warm-up: on a machine shared by many jobs, wall time is stretched by the
 * load, CPU time much less.
 */
async function costOf(db: Db, rounds: number, fn: () => Promise<unknown>) {
  const { rows } = await db.pool.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
  const backend = rows[0]!.pid;
  await fn();
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    const own = process.cpuUsage();
    const theirs = cpuMsOf(backend);
    await fn();
    const used = process.cpuUsage(own);
    wall.push(performance.now() - started);
    cpu.push((used.user + used.system) / 1000 + cpuMsOf(backend) - theirs);
  }
  return `${ms(median(wall))} | ${ms(Math.max(...wall))} | ${ms(median(cpu))}`;
}

const statementKind = (sql: string): string => {
  if (sql.includes("FROM results r CROSS JOIN run")) return "read the run's failures";
  if (sql.includes("FROM runs WHERE id = $1")) return "the run's facts";
  if (sql.includes("triage_runs (run_id")) return "triage_runs";
  if (sql.includes("INTO failure_groups")) return "failure_groups (the new groups)";
  if (sql.includes("INTO result_fingerprints")) return "result_fingerprints";
  if (sql.includes("INTO defect_decisions")) return "analysis from past decisions";
  return "other";
};

/**
 * Triage's step for one stored run, as the server runs it after the upload's commit (it ran in
 * the upload's transaction before session 39), rolled back: wall time by statement, and CPU time
 * of this process and of its PostgreSQL backend (a loaded machine stretches wall times; CPU
 * times hold).
 */
async function timeTriageStep(
  pool: pg.Pool,
  runId: number,
  /** Keep the groups earlier runs made (a known-tests upload): forget only this run's filing. */
  known = false,
) {
  const client = await pool.connect();
  const totals = new Map<string, number>();
  try {
    const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    const backend = rows[0]!.pid;
    await client.query("BEGIN");
    if (known) {
      await client.query("DELETE FROM result_fingerprints WHERE run_id = $1", [runId]);
      await client.query("DELETE FROM triage_runs WHERE run_id = $1", [runId]);
    } else await forgetAll(client);
    const restore = timeQueries(client, totals, statementKind);
    const started = performance.now();
    const cpu = process.cpuUsage();
    const backendCpu = cpuMsOf(backend);
    await recordRunFailures(client, runId, { similarity: 0.6 });
    const total = performance.now() - started;
    const used = process.cpuUsage(cpu);
    const cpuMs = (used.user + used.system) / 1000 + cpuMsOf(backend) - backendCpu;
    restore();
    await client.query("ROLLBACK");
    const sql = [...totals.values()].reduce((sum, value) => sum + value, 0);
    return { total, totals, js: total - sql, cpuMs };
  } finally {
    client.release();
  }
}

/** Triage's step for `runId`, warmed up then timed three times, as rows of the ingest table. */
async function sayTriageStep(
  pool: pg.Pool,
  runId: number,
  label: string,
  upload: { ms: number; cpuMs: number },
  known: boolean,
) {
  await timeTriageStep(pool, runId, known); // warm-up: JIT, caches
  const rounds = [];
  for (let i = 0; i < 3; i++) rounds.push(await timeTriageStep(pool, runId, known));
  const total = median(rounds.map((round) => round.total));
  const cpu = median(rounds.map((round) => round.cpuMs));
  const share = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)}%`;
  say(`| ${label}: upload end to end (its answer) | ${ms(upload.ms)} | ${ms(upload.cpuMs)} |`);
  say(
    `| triage's step, after the answer (median of 3; its size beside the upload's) | ${ms(total)} = ${share(total, upload.ms)} | ${ms(cpu)} = ${share(cpu, upload.cpuMs)} |`,
  );
  for (const kind of new Set(rounds.flatMap((round) => [...round.totals.keys()]))) {
    say(`|   ${kind} | ${ms(median(rounds.map((round) => round.totals.get(kind) ?? 0)))} |`);
  }
  say(
    `|   JavaScript (fingerprints, hashes, arrays) | ${ms(median(rounds.map((round) => round.js)))} |`,
  );
}

/**
 * Until the server has done its work after its answers (triage, flaky's count), so that timings
 * do not overlap it.
 */
async function untilTriaged(pool: pg.Pool) {
  for (;;) {
    const { rowCount } = await pool.query("SELECT 1 FROM run_pending LIMIT 1");
    if (rowCount === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The 100k upload of new tests, then the same report again (known tests: its causes are known
 * groups, whose rows triage's step updates), each with its triage step timed.
 */
async function benchIngest(server: IngestServer, tmp: string) {
  step("generating the ingest bench's JUnit reports (1k warm-up, 100k)");
  const warmup = await writeJunitReport(path.join(tmp, "warmup.xml"), 1_000, 7);
  const junit = await writeJunitReport(path.join(tmp, "junit-100k.xml"), 100_000, 2);
  await server.upload([warmup], {});
  const pool = new pg.Pool({ connectionString: server.dbUrl, max: 2 });
  try {
    for (const label of ["new tests", "known tests (the same report again)"]) {
      const measured = await server.upload([junit], {});
      const body = measured.answer.body as IngestResponse;
      const { rows } = await pool.query<{ id: string; failed: number }>(
        "SELECT id, failed FROM runs WHERE test_run_key = $1",
        [body.test_run_key],
      );
      const cpuMs = measured.serverCpuMs + (measured.postgresCpuMs ?? Number.NaN);
      await untilTriaged(pool);
      say(`\n100k JUnit upload, ${label}: ${body.inserted} results, ${rows[0]!.failed} failed`);
      say(`| | wall | CPU (server + PostgreSQL) |`);
      const known = label !== "new tests";
      await sayTriageStep(
        pool,
        Number(rows[0]!.id),
        label,
        { ms: measured.answer.ms, cpuMs },
        known,
      );
    }
  } finally {
    await pool.end();
  }
}

async function benchGroups(server: IngestServer, tmp: string) {
  step("uploading a 14,000-result run, every test failed, 40 causes");
  const file = await writeAllFailedReport(path.join(tmp, "all-failed.xml"), 14_000, 40);
  const measured = await server.upload([file], { family: "backend" });
  const key = (measured.answer.body as IngestResponse).test_run_key;
  const base = server.server.url;
  const get = async (url: string) => {
    const res = await fetch(`${base}${url}`, {
      headers: { authorization: `Bearer ${BENCH_TOKEN}` },
    });
    if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
    return res.text();
  };
  const groupsUrl = `/v1/runs/${key}/failure-groups`;
  const groups = JSON.parse(await get(groupsUrl)) as { id: number; count: number }[];
  const pool = new pg.Pool({ connectionString: server.dbUrl, max: 1 });
  const { rows } = await pool.query<{ id: string }>(
    `SELECT r.id FROM results r JOIN runs ON runs.id = r.run_id
     WHERE runs.test_run_key = $1 ORDER BY r.id LIMIT 100`,
    [key],
  );
  await pool.end();
  const causesUrl = `/v1/runs/${key}/failure-causes?ids=${rows.map((row) => row.id).join(",")}`;
  const cases: [string, string][] = [
    [`groups of the run (${groups.length} groups)`, groupsUrl],
    ["causes of a page (100 results)", causesUrl],
    [
      "the results dialog's page, one group",
      `/v1/api-test-run/${key}/view?group=${groups[0]!.id}&limit=100`,
    ],
  ];
  say(`\n14,000-result run (upload ${ms(measured.answer.ms)}), over HTTP, median and max of 20:`);
  say("| answer | first call (built) | kept answer: median | max | size |");
  for (const [label, url] of cases) {
    const started = performance.now();
    const bytes = (await get(url)).length;
    const first = performance.now() - started;
    const times = await callTimes(20, () => get(url));
    say(
      `| ${label} | ${ms(first)} | ${ms(median(times))} | ${ms(Math.max(...times))} | ${bytes} bytes |`,
    );
  }
  // Built every time: the service as the route calls it, without the kept answers.
  const db = createDb(server.dbUrl, 1);
  try {
    say("\nBuilt every time (the service as the route calls it): wall median | max | CPU median");
    const triage = { db, settings: { similarity: 0.6 } };
    say(`| groups of the run | ${await costOf(db, 20, () => runFailureGroups(triage, key))} |`);
  } finally {
    await db.close();
  }
}

async function benchFailures(cleanup: Cleanup) {
  const url = await externalCluster(admin, cleanup).createDatabase(
    `assay_bench_triage_${process.pid}`,
  );
  const db = createDb(url, 1);
  cleanup.add("bench pool", () => db.close());
  await migrate(db.pool);
  step("filling triage's tables as 730 daily runs of 13,700 results leave them");
  const started = performance.now();
  const failures = await fillTriageStore(db.pool, {
    runs: 730,
    perRun: 13_700,
    failedShare: 0.1,
    groups: 5_000,
  });
  step(
    `${failures} failures of ${730 * 13_700} results in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  const since = (days: number) =>
    new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
  const cases: [string, Parameters<typeof failureGroups>[1]][] = [
    ["7 days (the screen's default)", { since: since(7) }],
    ["7 days, family frontend", { since: since(7), family: "frontend" }],
    ["7 days, platform windows", { since: since(7), platform: "windows" }],
    ["7 days, branch release", { since: since(7), branch: "release" }],
    ["7 days, site", { since: since(7), site: "site1.example.com" }],
    ["30 days", { since: since(30) }],
    ["90 days", { since: since(90) }],
  ];
  say("\nFailures screen (the service built each time): wall median | max | CPU median of 20");
  const triage = { db, settings: { similarity: 0.6 } };
  for (const [label, query] of cases) {
    const answer = await failureGroups(triage, query);
    const cost = await costOf(db, 20, () => failureGroups(triage, query));
    say(`| ${label} | ${answer.groups.length} groups | ${cost} |`);
  }
}

async function main() {
  const cleanup = new Cleanup();
  // Stopped (Ctrl-C, a timeout): scratch databases and the server's cluster go all the same.
  const stop = () => void cleanup.run().finally(() => process.exit(130));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  const tmp = await mkdtemp(path.join(tmpdir(), "assay-triage-bench-"));
  // PostgreSQL runs as the postgres user when the bench runs as root: it must enter this folder.
  await chmod(tmp, 0o711);
  cleanup.add("temporary folder", () => rm(tmp, { recursive: true, force: true }));
  say(
    `load average before: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  try {
    if (only === undefined || only === "ingest" || only === "groups") {
      // The server's own embedded PostgreSQL: its CPU is the upload's alone.
      const server = await IngestServer.start({
        dataDir: path.join(tmp, "server"),
        databaseUrl: undefined,
        cleanup,
        maxLifetimeMs: 30 * 60_000,
      });
      if (only !== "groups") await benchIngest(server, tmp);
      if (only !== "ingest") await benchGroups(server, tmp);
      await server.stop();
    }
    if (only === undefined || only === "failures") await benchFailures(cleanup);
  } finally {
    say(
      `load average after: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`,
    );
    await cleanup.run();
  }
}

await main();
