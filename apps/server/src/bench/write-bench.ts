import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { getRaw } from "./http-get.js";
import { Cleanup } from "./cleanup.js";
import { externalCluster } from "./databases.js";
import { IngestServer, type Measured } from "./ingest-server.js";
import { writeJunitReport } from "./junit-gen.js";
import { median, mib, seconds, step } from "./output.js";
import { clusterCpuMs, cpuMsOf } from "./procstat.js";
import { monotonicUs, printWindowedProfiles, type UploadWindow } from "./profile-windows.js";
import type { LocalFile } from "./upload.js";

/*
 * The write path's figures (issue 36): the 100k-test JUnit upload of `npm run bench`, three times
 * with new tests (three reports of different tests) and three times with known tests (each report
 * again), on one server after the bench's warm-up and 10k uploads. Usage:
 *   npm run bench:write [-- ROUNDS]     (BENCH_DATABASE_URL: an external server, else embedded)
 *   npm run bench:write -- ROUNDS --detail
 * Prints each upload's wall time, the CPU of the server process and of its PostgreSQL cluster
 * (embedded only: the cluster is the server's child), peak RSS and the RSS just before the
 * upload, and the load average, then the medians. Between two uploads it waits for the server
 * and PostgreSQL to be idle. --detail also prints, per upload, the CPU of each kind of
 * PostgreSQL process and the statements seen active (pg_stat_activity every 50 ms): what else
 * ran beside the upload.
 *
 * `--compare-triage` (issue 34: what triage adds to the 100k upload) starts two servers, one
 * with triage at upload and one without (BENCH_TRIAGE=off: no fingerprints in the parse
 * workers, no triage step in the storing transaction), and sends every report to both in
 * alternating order, so that drift of the machine falls on both alike; it prints both medians
 * and their difference.
 *
 * `--cpu-prof` runs each server under node --cpu-prof and prints, per thread, where its CPU went
 * during the 100k uploads (profile-windows.ts), averaged per upload: with --compare-triage, the
 * two servers' lines side by side say what triage's costs are made of.
 *
 * `--first-open` GETs the results dialog's first page of each run right after its upload's
 * answer and prints how long it took (issue 36's first open), with medians by kind.
 *
 * `--rest=SECONDS` rests that long once idle before each 100k upload: the nightly upload comes
 * after hours of rest, and one after a few minutes' rest was 0.25-0.8 s slower than one a few
 * seconds after the last (V8 shrinks its heaps at rest; docs/performance.md, "Session 42").
 */

function pgProcesses(postmaster: number | undefined): Map<number, { kind: string; ms: number }> {
  const map = new Map<number, { kind: string; ms: number }>();
  if (!postmaster) return map;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(f[1]) !== postmaster) continue;
      const cmd = readFileSync(`/proc/${entry}/cmdline`, "utf8").replace(/\0/g, " ");
      const kind = cmd
        .replace(/^postgres: /, "")
        .replace(/\d+\.\d+\.\d+\.\d+\(\d+\) /, "")
        .replace(/ (idle|INSERT|SELECT|COPY|UPDATE|DELETE|idle in transaction).*$/, "")
        .trim();
      map.set(Number(entry), { kind, ms: (Number(f[11]) + Number(f[12])) * 10 });
    } catch {
      /* gone */
    }
  }
  return map;
}

/** Samples the statements active in the database until the returned function is called. */
async function watchActivity(url: string): Promise<() => Promise<Map<string, number>>> {
  const seen = new Map<string, number>();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let watching = true;
  const sampling = (async () => {
    while (watching) {
      const { rows } = await client.query<{ q: string }>(
        `SELECT left(regexp_replace(query, '\\s+', ' ', 'g'), 90) AS q FROM pg_stat_activity
         WHERE state = 'active' AND pid <> pg_backend_pid() AND datname = current_database()`,
      );
      for (const { q } of rows) seen.set(q, (seen.get(q) ?? 0) + 1);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return async () => {
    watching = false;
    await sampling;
    await client.end();
    return seen;
  };
}

/** CPU a server and its PostgreSQL have used so far. */
const cpuOf = ({ server }: IngestServer) =>
  cpuMsOf(server.pid) + (server.postgresPid ? clusterCpuMs(server.postgresPid) : 0);

/**
 * Waits until the servers and their PostgreSQL have been idle (under `idleCpuMs` of CPU a second each)
 * for two seconds (at most 180 s): what an upload starts after its answer (the run view's
 * warm-up, the jobs it queued: aliases' rename search reads the whole run and ran past a minute
 * after each 100k new-tests upload, autovacuum) is not charged to the next upload, on this server
 * or on the other one compared.
 */
async function settle(servers: readonly IngestServer[], idleCpuMs: number): Promise<number> {
  const busy = () => servers.reduce((sum, server) => sum + cpuOf(server), 0);
  let idle = 0;
  let waited = 0;
  for (let last = busy(); waited < 180_000 && idle < 2; waited += 1_000) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const now = busy();
    idle = now - last < idleCpuMs * servers.length ? idle + 1 : 0;
    last = now;
  }
  return waited;
}

/** An upload measured to its answer, and the CPU its server used after it until idle. */
type Stored = Measured & { afterCpuMs: number };

const rounds = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 3);
const detail = process.argv.includes("--detail");
const compareTriage = process.argv.includes("--compare-triage");
const cpuProf = process.argv.includes("--cpu-prof");
/**
 * Under this much CPU a second, a server and its PostgreSQL are idle. At rest they use 40-120 ms
 * a second (pg-boss polling its queues, the lease's heartbeat; more after uploads than after the
 * start, session 42), and what an upload leaves running takes a core's worth. A profiled server
 * samples itself all the time: idle is then more CPU.
 */
const IDLE_CPU_MS = cpuProf ? 400 : 200;
const firstOpen = process.argv.includes("--first-open");
const restArg = process.argv.find((a) => a.startsWith("--rest="));
const restMs = restArg ? 1000 * Number(restArg.slice("--rest=".length)) : 0;
if (!Number.isFinite(restMs) || restMs < 0)
  throw new Error(`${restArg}: expected --rest=SECONDS, a whole number of seconds`);
/**
 * The results dialog's first read of the run just stored (its first page as it opens), sent
 * right after the upload's answer: while the view the server warms at the answer may still be
 * building, the worst moment to open it (issue 36: "a run's first open is as fast as the next").
 */
async function openRun(server: IngestServer, label: string, m: Measured) {
  const key = (m.answer.body as { test_run_key: string }).test_run_key;
  const url = `${server.server.url}/v1/test-runs/${encodeURIComponent(key)}/view?hide=passed,skipped,unstable&limit=60`;
  const started = performance.now();
  const answer = await getRaw(url, 60_000);
  const ms = performance.now() - started;
  if (answer.status !== 200) throw new Error(`${label}: the first open answered ${answer.status}`);
  process.stdout.write(`  first open (first page of its results): ${ms.toFixed(0)} ms\n`);
  return { label, ms };
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

async function main(): Promise<void> {
  const cleanup = new Cleanup();
  const stop = () => void cleanup.run().finally(() => process.exit(130));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  const tmp = await mkdtemp(path.join(tmpdir(), "assay-write-bench-"));
  await chmod(tmp, 0o711);
  cleanup.add(`temporary folder ${tmp}`, () => rm(tmp, { recursive: true, force: true }));
  try {
    const base = process.env.BENCH_DATABASE_URL;
    const external = base ? externalCluster(base, cleanup) : undefined;
    step("generating JUnit reports");
    const warmup = await writeJunitReport(path.join(tmp, "warmup.xml"), 1_000, 7);
    const junit10k = await writeJunitReport(path.join(tmp, "junit-10k.xml"), 10_000, 1);
    const reports: LocalFile[] = [];
    for (let i = 0; i < rounds; i++)
      reports.push(await writeJunitReport(path.join(tmp, `junit-100k-${i}.xml`), 100_000, 2 + i));
    const profileDir = (name: string) => path.join(tmp, `profile-${name}`);
    const windows = new Map<IngestServer, UploadWindow[]>();
    const start = async (name: string, env?: Record<string, string>) =>
      IngestServer.start(
        {
          dataDir: path.join(tmp, name),
          databaseUrl: external
            ? await external.createDatabase(`assay_bench_write_${randomBytes(3).toString("hex")}`)
            : undefined,
          cleanup,
          maxLifetimeMs: 30 * 60_000,
          ...(env ? { env } : {}),
        },
        cpuProf ? ["--cpu-prof", `--cpu-prof-dir=${profileDir(name)}`] : [],
      );
    const upload = async (
      server: IngestServer,
      label: string,
      file: LocalFile,
    ): Promise<Stored> => {
      if (restMs > 0 && label.includes(" 100k ")) {
        step(`resting ${seconds(restMs)} before ${label.trim()}`);
        await new Promise((resolve) => setTimeout(resolve, restMs));
      }
      const before = detail ? pgProcesses(server.server.postgresPid) : undefined;
      const activity = detail ? await watchActivity(server.dbUrl) : undefined;
      const fromUs = monotonicUs();
      const m = await server.upload([file], {});
      const cpuAtAnswer = cpuOf(server);
      const kind = / 100k (new|known) tests /.exec(label)?.[1];
      if (kind) {
        const list = windows.get(server) ?? [];
        list.push({ kind: `100k ${kind} tests`, fromUs, toUs: monotonicUs() });
        windows.set(server, list);
      }
      const seen = await activity?.();
      if (m.answer.status !== 201 && m.answer.status !== 200)
        throw new Error(`${label}: the server answered ${m.answer.status}`);
      step(
        `${label}: ${seconds(m.answer.ms)}, server CPU ${m.serverCpuMs} ms, PostgreSQL CPU ${m.postgresCpuMs ?? "?"} ms, peak RSS ${mib(m.peakRss)} (${mib(m.idleRss)} before it), load ${load()}`,
      );
      if (firstOpen) opens.push(await openRun(server, label, m));
      if (before && seen) {
        const byKind = new Map<string, number>();
        for (const [pid, { kind, ms }] of pgProcesses(server.server.postgresPid)) {
          const used = ms - (before.get(pid)?.ms ?? 0);
          if (used > 0) byKind.set(kind, (byKind.get(kind) ?? 0) + used);
        }
        const kinds = [...byKind].map(([kind, ms]) => `${kind} ${ms} ms`).join(", ");
        process.stdout.write(`  PostgreSQL processes' CPU: ${kinds}\n`);
        for (const [query, n] of [...seen].sort((a, b) => b[1] - a[1]).slice(0, 12))
          process.stdout.write(`  seen active ${n} times: ${query}\n`);
      }
      const settled = await settle(
        servers.map((s) => s.server),
        IDLE_CPU_MS,
      );
      // Work a server does after the answer (triage since session 39, the view's warming).
      const afterCpuMs = cpuOf(server) - cpuAtAnswer;
      process.stdout.write(
        `  idle again after ${seconds(settled)} (background work: ${afterCpuMs} ms of CPU after the answer, idle included)\n`,
      );
      return { ...m, afterCpuMs };
    };
    const opens: { label: string; ms: number }[] = [];
    const servers = compareTriage
      ? [
          { label: "with triage", server: await start("server") },
          { label: "without triage", server: await start("bare", { BENCH_TRIAGE: "off" }) },
        ]
      : [{ label: "", server: await start("server") }];
    for (const { label, server } of servers) {
      await upload(server, `${label} warm-up 1k`, warmup);
      await upload(server, `${label} 10k`, junit10k);
    }
    const created = servers.map(() => [] as Stored[]);
    const known = servers.map(() => [] as Stored[]);
    for (let i = 0; i < rounds; i++) {
      // Alternating which server goes first: a machine slowing down costs both alike.
      const order = i % 2 === 0 ? servers.keys() : [...servers.keys()].reverse();
      for (const s of order) {
        const { label, server } = servers[s]!;
        created[s]!.push(await upload(server, `${label} 100k new tests #${i + 1}`, reports[i]!));
        known[s]!.push(await upload(server, `${label} 100k known tests #${i + 1}`, reports[i]!));
      }
    }
    for (const [s, { label }] of servers.entries()) {
      for (const [kind, list] of [
        ["new tests", created[s]!],
        ["known tests", known[s]!],
      ] as const) {
        step(
          `${label} median of ${list.length}, 100k ${kind}: ${seconds(median(list.map((m) => m.answer.ms)))}, server CPU ${median(list.map((m) => m.serverCpuMs))} ms, PostgreSQL CPU ${median(list.map((m) => m.postgresCpuMs ?? 0))} ms, peak RSS max ${mib(Math.max(...list.map((m) => m.peakRss)))}`,
        );
      }
    }
    if (compareTriage) {
      const wall = (list: Stored[]) => median(list.map((m) => m.answer.ms));
      const cpu = (list: Stored[]) =>
        median(list.map((m) => m.serverCpuMs + (m.postgresCpuMs ?? 0)));
      const after = (list: Stored[]) => median(list.map((m) => m.afterCpuMs));
      const added = (a: number, b: number) =>
        `${(a - b).toFixed(0)} ms = ${((100 * (a - b)) / b).toFixed(1)}%`;
      for (const [kind, lists] of [
        ["new tests", created],
        ["known tests", known],
      ] as const) {
        const [withTriage, without] = [lists[0]!, lists[1]!];
        step(
          `triage adds to the 100k ${kind} upload (medians): wall ${added(wall(withTriage), wall(without))}, CPU (server + PostgreSQL) ${added(cpu(withTriage), cpu(without))}; after the answer: CPU ${(after(withTriage) - after(without)).toFixed(0)} ms more`,
        );
      }
    }
    for (const kind of ["10k", "100k new tests", "100k known tests"]) {
      const times = opens.filter((o) => o.label.includes(` ${kind}`)).map((o) => o.ms);
      if (times.length > 0)
        step(
          `first open after the answer, ${kind}: median ${median(times).toFixed(0)} ms of ${times.length}`,
        );
    }
    for (const { server } of servers) await server.stop();
    if (cpuProf) {
      for (const [i, { label, server }] of servers.entries())
        printWindowedProfiles(
          label || "server",
          profileDir(i === 0 ? "server" : "bare"),
          windows.get(server) ?? [],
          (line) => process.stdout.write(`${line}\n`),
        );
    }
  } finally {
    await cleanup.run();
  }
}

await main();
