import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
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
import { makeDataDir, startE2eServer, type E2eServer } from "../../../e2e/support/server.js";

// The crash campaign (issue #25): the server is killed with SIGKILL at CRASH_KILLS random
// moments while CRASH_CLIENTS clients upload JUnit and CTRF reports (Idempotency-Key, retried
// until acknowledged) and live runs (two batches, a screenshot, finish). After the last restart:
// every acknowledged upload is stored exactly once with all its results and attachments, an
// unacknowledged one is absent or whole, each run's counts equal its stored results, and no
// orphaned object, object temp file or upload spool folder is left. CI runs 3 kills;
// `npm run crash` runs 100 (CRASH_SEED replays a campaign's choices).
// With TEST_DATABASE_URL the server uses a fresh database there (a restart is then ~2 s
// quicker than with the embedded PostgreSQL, which the default uses).
const KILLS = Number(process.env.CRASH_KILLS ?? 3);
const CLIENTS = Number(process.env.CRASH_CLIENTS ?? 4);
const SEED = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);
/** Each kill comes WAIT_MS / 4 to 5/4 WAIT_MS after the restart: long enough for uploads to end. */
const WAIT_MS = Number(process.env.CRASH_WAIT_MS ?? 6_000);
const TOKEN = "crash-campaign-ingest-token-0123456789abcdef";

let server: E2eServer | undefined;
let dataDir: string;
let databaseUrl: string | undefined;
const admin = process.env.TEST_DATABASE_URL;

async function query<T extends pg.QueryResultRow>(sql: string): Promise<T[]> {
  let config: pg.ClientConfig = { connectionString: databaseUrl };
  if (!databaseUrl) {
    const pid = readFileSync(path.join(dataDir, "postgres", "pg", "postmaster.pid"), "utf8");
    const password = readFileSync(path.join(dataDir, "postgres", "postgres-password"), "utf8");
    config = {
      host: "127.0.0.1",
      port: Number(pid.split("\n")[3]),
      user: "assay",
      password: password.trim(),
      database: "assay",
    };
  }
  const client = new pg.Client(config);
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(sql).finally(() => client.end());
}

/** The server's upload spool folders, in its own TMPDIR (the machine's is shared). */
const spoolFolders = () =>
  readdirSync(path.join(dataDir, "tmp")).filter((f) => f.startsWith("assay-upload-"));

afterAll(async () => {
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
  if (databaseUrl)
    await adminQuery(
      `DROP DATABASE IF EXISTS ${new URL(databaseUrl).pathname.slice(1)} WITH (FORCE)`,
    );
}, 60_000);

describe("the crash campaign", () => {
  it(`loses and duplicates nothing over ${KILLS} kill -9 (seed ${SEED})`, async () => {
    const random = prng(SEED);
    console.log(`crash campaign: ${KILLS} kills, ${CLIENTS} clients, CRASH_SEED=${SEED}`);
    dataDir = await makeDataDir();
    await mkdir(path.join(dataDir, "tmp"));
    const env: Record<string, string> = {
      ASSAY_INGEST_TOKEN: TOKEN,
      TMPDIR: path.join(dataDir, "tmp"),
    };
    if (admin) {
      const name = `assay_crash_${randomBytes(5).toString("hex")}`;
      await adminQuery(`CREATE DATABASE ${name}`);
      const url = new URL(admin);
      url.pathname = `/${name}`;
      databaseUrl = url.toString();
      env.DATABASE_URL = databaseUrl;
    }
    server = await startE2eServer(env, { dataDir });
    const target: Target = { url: server.url, token: TOKEN };
    const jobs: Job[] = [];
    let stopping = false;
    const client = async (c: number) => {
      for (let n = 0; !stopping; n++) {
        const runKey = `c${c}-${n}`;
        const pick = random();
        if (pick < 0.25) {
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
          const results = 1 + Math.floor(random() * 800);
          const job: ReportJob = { kind, runKey, results, acknowledged: false, attempts: 0 };
          jobs.push(job);
          await runReportJob(target, job, () => stopping);
        }
      }
    };
    const clients = Array.from({ length: CLIENTS }, (_, c) => client(c));
    const started = Date.now();
    for (let kill = 1; kill <= KILLS; kill++) {
      await new Promise((r) => setTimeout(r, WAIT_MS / 4 + random() * WAIT_MS));
      await server.kill();
      // The last kill ends the campaign: what is in flight then stays unacknowledged.
      if (kill === KILLS) stopping = true;
      server = await startE2eServer(env, { dataDir });
      target.url = server.url;
    }
    await Promise.all(clients);
    const seconds = ((Date.now() - started) / 1000).toFixed(0);

    const runs = await query<{
      key: string;
      total: number;
      passed: number;
      failed: number;
      stored: number;
      attachments: number;
    }>(
      `SELECT r.test_run_key AS key, r.total, r.passed, r.failed,
              (SELECT count(*)::int FROM results x WHERE x.run_id = r.id) AS stored,
              (SELECT count(*)::int FROM attachments a JOIN results x ON x.id = a.result_id
                WHERE x.run_id = r.id) AS attachments
         FROM runs r`,
    );
    const byKey = new Map(runs.map((r) => [r.key, r]));
    expect(byKey.size, "one run per run key").toBe(runs.length);
    const problems: string[] = [];
    let acknowledged = 0;
    let duplicateAttachments = 0;
    for (const job of jobs) {
      const run = byKey.get(job.runKey);
      if (job.kind !== "live") {
        if (job.acknowledged) acknowledged++;
        if (!run) {
          if (job.acknowledged) problems.push(`${job.runKey}: acknowledged, not stored`);
        } else if (run.stored !== job.results) {
          problems.push(`${job.runKey}: ${run.stored} of ${job.results} results stored`);
        }
        continue;
      }
      const acked = job.batches.reduce((a, b) => a + b, 0);
      if (acked > 0) acknowledged += job.batches.length;
      const stored = run?.stored ?? 0;
      // Each batch is one transaction: 0, 3 or 8 results, never fewer than acknowledged.
      if (![0, 3, 8].includes(stored) || stored < acked) {
        problems.push(`${job.runKey}: ${stored} live results, ${acked} acknowledged`);
      }
      if (job.attachmentAcknowledged && (run?.attachments ?? 0) < 1) {
        problems.push(`${job.runKey}: acknowledged screenshot missing`);
      }
      if ((run?.attachments ?? 0) > 1) {
        duplicateAttachments += (run?.attachments ?? 1) - 1;
        problems.push(`${job.runKey}: ${run?.attachments} screenshots of one Idempotency-Key`);
      }
      if ((run?.attachments ?? 0) > job.attachmentAttempts) {
        problems.push(
          `${job.runKey}: ${run?.attachments} screenshots from ${job.attachmentAttempts} attempts`,
        );
      }
    }
    for (const run of runs) {
      if (run.total !== run.stored)
        problems.push(`${run.key}: total ${run.total}, ${run.stored} stored`);
    }
    const keys = await query<{ key: string }>("SELECT object_key AS key FROM attachments");
    const referenced = new Set(keys.map((k) => k.key));
    const objectsDir = path.join(dataDir, "objects");
    const files = readdirSync(objectsDir, { recursive: true, withFileTypes: true }).filter((e) =>
      e.isFile(),
    );
    const relative = (e: (typeof files)[number]) =>
      path.relative(objectsDir, path.join(e.parentPath, e.name));
    const orphans = files.filter((e) => !e.name.startsWith(".") && !referenced.has(relative(e)));
    const temps = files.filter((e) => e.name.endsWith(".tmp") || e.name.endsWith(".tmp.meta"));
    // The last start removed the killed processes' folders; no upload runs now.
    const spools = spoolFolders();
    console.log(
      `crash campaign: ${KILLS} kills in ${seconds} s, ${jobs.length} uploads (${acknowledged} acknowledged steps), ` +
        `${runs.length} runs, ${runs.reduce((a, r) => a + r.stored, 0)} results; problems ${problems.length}, ` +
        `duplicate screenshots ${duplicateAttachments}, orphan objects ${orphans.length}, object temp files ${temps.length}, spool folders ${spools.length}`,
    );
    expect(problems).toEqual([]);
    // Known gap (docs/reliability.md): a screenshot stored just before a kill, whose row never
    // committed, stays as an unreferenced file; at most one per client per kill.
    expect(orphans.length).toBeLessThanOrEqual(KILLS * CLIENTS);
    expect(temps.map(relative)).toEqual([]);
    expect(spools).toEqual([]);
  }, 3_600_000);
});
