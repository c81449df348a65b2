import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  prng,
  runLiveJob,
  runReportJob,
  type Job,
  type LiveJob,
  type ReportJob,
  type Target,
} from "../../../e2e/support/crash-clients.js";
import { checkCampaign } from "../../../e2e/support/pg-crash-checks.js";
import {
  queryOnce,
  startScratchPostgres,
  type ScratchPostgres,
} from "../../../e2e/support/scratch-postgres.js";
import { makeDataDir, startE2eServer, type E2eServer } from "../../../e2e/support/server.js";

// PostgreSQL killed under a serving Assay (issue #25): while PG_CRASH_CLIENTS clients upload
// (JUnit and CTRF reports with an Idempotency-Key and no run key, so only the key keeps a
// retry from storing a second run; live runs: open, two batches, a screenshot, finish), a
// PostgreSQL cluster of the test's own is killed at PG_CRASH_KILLS moments: in turn the
// postmaster (SIGKILL, then started again after a pause) and one busy backend (SIGKILL: the
// postmaster then ends every session and recovers by itself). The server is never restarted.
// Each kill: a request is answered 503 database_unavailable within 5 s while PostgreSQL is
// down, and /readyz is 200 again within 30 s of it being back. Every refused answer the clients
// get is a 503 (or 409 while the same key is still being stored), never a 500. Then the checks
// of pg-crash-checks.ts. CI runs 4 kills; `npm run crash:pg` runs 30.
const KILLS = Number(process.env.PG_CRASH_KILLS ?? 4);
const CLIENTS = Number(process.env.PG_CRASH_CLIENTS ?? 3);
const SEED = Number(process.env.PG_CRASH_SEED ?? Date.now() % 1_000_000);
/** Each kill comes WAIT_MS / 4 to 5/4 WAIT_MS after the recovery from the previous one. */
const WAIT_MS = Number(process.env.PG_CRASH_WAIT_MS ?? 2_000);
const TOKEN = "pg-crash-campaign-ingest-token-0123456789ab";
const DATABASE = "assay_pg_crash";

let cluster: ScratchPostgres | undefined;
let server: E2eServer | undefined;
let dataDir: string | undefined;

afterAll(async () => {
  await server?.stop();
  await cluster?.destroy();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}, 60_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Backend {
  pid: number;
  state: string;
  query: string;
}

/** Where an upload was when its backend died, from the statement it was running. */
function phaseOf(backend: Backend | undefined): string {
  if (!backend) return "no statement in flight";
  const query = backend.query.replace(/\s+/g, " ").trim();
  if (/^COPY/i.test(query)) return "build: COPY of results";
  if (/pgboss/i.test(query)) return "background jobs (pg-boss)";
  if (/idempotency_keys/i.test(query)) return "Idempotency-Key lookup or answer";
  // pg-boss takes a lock by name before its maintenance commands; ingestion's is a try-lock.
  if (/pg_advisory_xact_lock\(hashtext\(/i.test(query)) return "background jobs (pg-boss)";
  if (/pg_try_advisory/i.test(query)) return "Idempotency-Key lock";
  if (/WITH ranked|UPDATE runs|is_final/i.test(query)) return "finalize: ranking and counts";
  if (/^COMMIT/i.test(query)) return "commit";
  if (/\bruns\b/i.test(query)) return "run: open or update";
  if (/\b(results|tests|attachments)\b/i.test(query)) return "build: results, tests, attachments";
  return `other: ${query.slice(0, 40)}`;
}

/** Idle in its transaction (the app between two statements: parsing, resolving tests): after what. */
function momentOf(backend: Backend | undefined): string {
  const phase = phaseOf(backend);
  return backend?.state === "idle in transaction" ? `between statements, after ${phase}` : phase;
}

/** The app's sessions: busy ones (a statement or a transaction open, not pg-boss), or all. */
async function backends(adminUrl: string, busy = true): Promise<Backend[]> {
  return queryOnce<Backend>(
    adminUrl,
    `SELECT pid, state, left(query, 300) AS query FROM pg_stat_activity
      WHERE datname = $1 AND backend_type = 'client backend'
        AND (NOT $2 OR (state IN ('active', 'idle in transaction')
                        AND query NOT ILIKE '%pgboss%'))`,
    [DATABASE, busy],
  );
}

/** Polls /readyz until `want` (200 or 503); how long it took, or Infinity past `limitMs`. */
async function readyzUntil(url: string, want: number, limitMs: number): Promise<number> {
  const started = Date.now();
  let refused = 0;
  while (Date.now() - started < limitMs) {
    try {
      const response = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(limitMs) });
      const body = await response.text();
      if (response.status === want && (want === 200 || body.includes("database_unavailable"))) {
        return Date.now() - started;
      }
      refused = 0;
    } catch {
      // Not answering for 3 s: the server itself is gone (it is never restarted here).
      if (++refused >= 30) return Infinity;
    }
    await sleep(100);
  }
  return Infinity;
}

const count = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

describe("the PostgreSQL crash campaign", () => {
  it(`loses, duplicates and half-stores nothing over ${KILLS} PostgreSQL kills (seed ${SEED})`, async () => {
    const random = prng(SEED);
    console.log(
      `PostgreSQL crash campaign: ${KILLS} kills, ${CLIENTS} clients, PG_CRASH_SEED=${SEED}`,
    );
    cluster = await startScratchPostgres();
    const adminUrl = cluster.urlFor("postgres");
    await queryOnce(adminUrl, `CREATE DATABASE ${DATABASE}`);
    dataDir = await makeDataDir();
    await mkdir(path.join(dataDir, "tmp"));
    server = await startE2eServer(
      {
        ASSAY_INGEST_TOKEN: TOKEN,
        DATABASE_URL: cluster.urlFor(DATABASE),
        TMPDIR: path.join(dataDir, "tmp"),
      },
      { dataDir },
    );
    // /readyz answers from listen on; the start ends a moment later (the first admin is made
    // after listen), and a database lost before that ends `assay start` (docs/reliability.md).
    for (let waited = 0; !server.output().includes("Assay is listening on"); waited += 100) {
      if (waited > 60_000)
        throw new Error(`the server did not finish starting:\n${server.output()}`);
      await sleep(100);
    }
    const refusals = new Map<string, number>();
    const target: Target = {
      url: server.url,
      token: TOKEN,
      onRefused: (status, body) => {
        const code = /"code":"([a-z_]+)"/.exec(body)?.[1] ?? body.slice(0, 60);
        count(refusals, `${status} ${code}`);
      },
    };
    const jobs: Job[] = [];
    let stopping = false;
    const client = async (c: number) => {
      for (let n = 0; !stopping; n++) {
        const runKey = `pg-c${c}-${n}`;
        const pick = random();
        if (pick < 0.3) {
          const job: LiveJob = {
            kind: "live",
            runKey,
            batches: [],
            attachmentAcknowledged: false,
            attachmentAttempts: 0,
            finished: false,
          };
          jobs.push(job);
          await runLiveJob(target, job, () => stopping);
        } else {
          const kind = pick < 0.65 ? "junit" : "ctrf";
          const results = 1 + Math.floor(random() * 1500);
          const job: ReportJob = {
            kind,
            runKey,
            results,
            named: true,
            acknowledged: false,
            attempts: 0,
          };
          jobs.push(job);
          await runReportJob(target, job, () => stopping);
        }
      }
    };
    const clients = Array.from({ length: CLIENTS }, (_, c) => client(c));
    const started = Date.now();
    const serverPhases = new Map<string, number>();
    const clientSteps = new Map<string, number>();
    const slow: string[] = [];
    let postmasterKills = 0;
    let worstDown = 0;
    let worstRecovery = 0;
    for (let kill = 1; kill <= KILLS; kill++) {
      await sleep(WAIT_MS / 4 + random() * WAIT_MS);
      const postmaster = kill % 2 === 0;
      // Aim at an upload in flight: wait a little for one if none is (up to 3 s).
      // (A connection may still be refused while PostgreSQL finishes its own crash recovery.)
      const busyNow = () => backends(adminUrl).catch((): Backend[] => []);
      let busy = await busyNow();
      for (let waited = 0; busy.length === 0 && waited < 3_000; waited += 50) {
        await sleep(50);
        busy = await busyNow();
      }
      // One running a statement if any (COPY, finalize, commit), else one between statements.
      const active = busy.filter((b) => b.state === "active");
      const pool = active.length ? active : busy;
      const victim = pool[Math.floor(random() * pool.length)];
      for (const job of jobs) {
        if (job.step)
          count(clientSteps, job.kind === "live" ? `live ${job.step}` : "report upload");
      }
      count(serverPhases, momentOf(victim));
      if (postmaster) {
        postmasterKills++;
        process.kill(await cluster.postmasterPid(), "SIGKILL");
        // The last kill ends the uploads: what is in flight now stays unacknowledged.
        if (kill === KILLS) stopping = true;
        const down = await readyzUntil(server.url, 503, 5_000);
        worstDown = Math.max(worstDown, down);
        if (down > 5_000) slow.push(`kill ${kill}: /readyz not 503 database_unavailable in 5 s`);
        await sleep(500 + random() * 1_500);
        await cluster.restart();
      } else {
        // No upload in flight: an idle session of the app's pool will do.
        const pid = victim?.pid ?? (await backends(adminUrl, false).catch(() => []))[0]?.pid;
        if (kill === KILLS) stopping = true;
        if (pid) process.kill(pid, "SIGKILL");
      }
      const recovery = await readyzUntil(server.url, 200, 30_000);
      worstRecovery = Math.max(worstRecovery, recovery);
      if (recovery > 30_000) {
        slow.push(`kill ${kill} (${momentOf(victim)}): not ready again within 30 s`);
        stopping = true;
        break;
      }
      target.url = server.url;
    }
    await Promise.all(clients);
    const seconds = ((Date.now() - started) / 1000).toFixed(0);

    // Why the server did not come back, if it did not: its last words.
    if (slow.length) console.log(`the server's log:\n${server.output().slice(-6_000)}`);
    expect(slow).toEqual([]);
    const findings = await checkCampaign(
      cluster.urlFor(DATABASE),
      jobs,
      path.join(dataDir, "objects"),
    );
    const list = (map: Map<string, number>) =>
      [...map]
        .sort((a, b) => b[1] - a[1])
        .map(([k, n]) => `${k} ${n}`)
        .join(", ");
    console.log(
      `PostgreSQL crash campaign: ${KILLS} kills (${KILLS - postmasterKills} of a backend, ${postmasterKills} of the postmaster) in ${seconds} s; ` +
        `${jobs.length} uploads (${findings.acknowledged} acknowledged steps, ${findings.retried} reports retried with their key), ` +
        `${findings.runs} runs, ${findings.results} results; problems ${findings.problems.length}; ` +
        `orphan objects ${findings.orphanObjects}; worst 503 after a kill ${worstDown} ms, worst recovery ${worstRecovery} ms\n` +
        `  backend statement at the kill: ${list(serverPhases)}\n  client steps in flight: ${list(clientSteps)}\n` +
        `  refused answers: ${list(refusals)}`,
    );
    expect(findings.problems).toEqual([]);
    // While PostgreSQL is down a request is a clear 503 (or 409: the same key still stored).
    const unclear = [...refusals.keys()].filter(
      (k) => k !== "503 database_unavailable" && k !== "409 idempotency_in_progress",
    );
    expect(unclear).toEqual([]);
  }, 3_600_000);
});
