import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, openSync, closeSync, readFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import pg from "pg";
import type { Cleanup } from "./cleanup.js";
import { cpuMsOf } from "./procstat.js";

const ENTRY = fileURLToPath(new URL("./server-entry.js", import.meta.url));

/** A bench token: any secret of 24+ characters, accepted by the server for ingestion. */
export const BENCH_TOKEN = "assay-bench-token-0123456789abcdef";

export interface ServerOptions {
  /** ASSAY_DATA_DIR: the embedded PostgreSQL (unless databaseUrl) and stored objects. */
  dataDir: string;
  databaseUrl?: string;
  /** Extra node flags, e.g. --cpu-prof. */
  nodeArgs?: string[];
  /** The server stops by itself after this long. */
  maxLifetimeMs: number;
  /** File name of its output in dataDir (default server.log). */
  logName?: string;
  /** Environment variables over the defaults (the load test sets ASSAY_DEMO=1). */
  env?: Record<string, string>;
}

export interface ServerProcess {
  pid: number;
  /** The postmaster of the server's embedded PostgreSQL (absent with DATABASE_URL). */
  postgresPid: number | undefined;
  url: string;
  logFile: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address
          ? resolve(address.port)
          : reject(new Error("no port")),
      );
    });
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(condition: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (condition()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return condition();
}

/** The postmaster PID of the embedded cluster under dataDir, while it runs. */
function postmasterPid(dataDir: string): number | undefined {
  const file = path.join(dataDir, "postgres", "pg", "postmaster.pid");
  if (!existsSync(file)) return undefined;
  const pid = Number.parseInt(readFileSync(file, "utf8").split("\n")[0] ?? "", 10);
  return pid > 0 ? pid : undefined;
}

/** Polls /readyz until the database is reachable and migrated (first start runs initdb). */
async function waitReady(url: string, exited: () => boolean): Promise<boolean> {
  const end = Date.now() + 120_000;
  while (Date.now() < end && !exited()) {
    const ok = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

function logTail(logFile: string): string {
  try {
    return readFileSync(logFile, "utf8").split("\n").slice(-15).join("\n");
  } catch {
    return "(no log)";
  }
}

/**
 * Starts `node dist/bench/server-entry.js` listening on 127.0.0.1 and waits until /readyz says
 * the database is reachable and migrated. Its output goes to server.log in the data folder. The
 * process, and the embedded PostgreSQL it started, are stopped by stop() or by the cleanup.
 */
export async function startServerProcess(
  options: ServerOptions,
  cleanup: Cleanup,
): Promise<ServerProcess> {
  await mkdir(options.dataDir, { recursive: true, mode: 0o711 });
  const port = await freePort();
  const logFile = path.join(options.dataDir, options.logName ?? "server.log");
  const log = openSync(logFile, "a");
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: String(port),
    HOST: "127.0.0.1",
    ASSAY_DATA_DIR: options.dataDir,
    ASSAY_INGEST_TOKEN: BENCH_TOKEN,
    LOG_LEVEL: "warn",
    // As `npm start` runs the server (package.json; docs/configuration.md).
    MALLOC_ARENA_MAX: "2",
    // The demo load would compete with the measurements.
    ASSAY_DEMO: "0",
    BENCH_SERVER_MAX_MS: String(options.maxLifetimeMs),
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    ...options.env,
  };
  const child: ChildProcess = spawn(process.execPath, [...(options.nodeArgs ?? []), ENTRY], {
    cwd: options.dataDir,
    env,
    stdio: ["ignore", log, log],
  });
  closeSync(log);
  const pid = child.pid;
  if (pid === undefined) throw new Error("could not start the server process");
  let exited = false;
  child.once("exit", () => {
    exited = true;
  });
  let postgresPid: number | undefined;

  const stop = async () => {
    postgresPid ??= postmasterPid(options.dataDir);
    if (!exited) {
      child.kill("SIGTERM");
      if (!(await until(() => exited, 60_000))) child.kill("SIGKILL");
      await until(() => exited, 5_000);
    }
    // The server stops its embedded PostgreSQL; if it was killed, the bench stops it.
    if (postgresPid !== undefined && !options.databaseUrl && alive(postgresPid)) {
      await until(() => !alive(postgresPid!), 10_000);
      if (alive(postgresPid)) process.kill(postgresPid, "SIGINT");
      if (!(await until(() => !alive(postgresPid!), 20_000))) process.kill(postgresPid, "SIGKILL");
    }
  };
  const forget = cleanup.add(`server process ${pid}`, stop);
  const url = `http://127.0.0.1:${port}`;
  const ready = await waitReady(url, () => exited);
  if (!ready) {
    await stop();
    forget();
    throw new Error(`the server did not become ready; its log ends with:\n${logTail(logFile)}`);
  }
  postgresPid = postmasterPid(options.dataDir);
  return {
    pid,
    postgresPid: options.databaseUrl ? undefined : postgresPid,
    url,
    logFile,
    stop: async () => {
      forget();
      await stop();
    },
  };
}

/**
 * Waits until a server started on a loaded store has ended its first background work (triage
 * fingerprinting the stored runs, Top Fails' first count, autovacuum after them): its process
 * under 50 ms of CPU a second and no statement active on `databaseUrl`'s database but this
 * probe's, three seconds running, at most `maxMs`. Timed reads taken during that work measure
 * it, not the reads. Returns the milliseconds waited, or -1 when it never went quiet.
 */
export async function untilServerIdle(
  server: ServerProcess,
  databaseUrl: string,
  maxMs: number,
): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const started = performance.now();
    let quiet = 0;
    for (let cpu = cpuMsOf(server.pid); quiet < 3;) {
      if (performance.now() - started > maxMs) return -1;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const { rows } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
         WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()`,
      );
      const now = cpuMsOf(server.pid);
      quiet = now - cpu < 50 && rows[0]!.n === 0 ? quiet + 1 : 0;
      cpu = now;
    }
    return performance.now() - started;
  } finally {
    await client.end();
  }
}
