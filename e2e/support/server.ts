import { execFile, spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { inject } from "vitest";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

declare module "vitest" {
  export interface ProvidedContext {
    /** The e2e run's folder for the demo's data (global-setup.ts), see startDemoServer. */
    demoTemplate: string;
  }
}

export interface E2eServer {
  url: string;
  /** ASSAY_DATA_DIR of the server, for CLI commands that share its database. */
  dataDir: string;
  output: () => string;
  stop(): Promise<void>;
  /** kill -9: what a crash looks like (PostgreSQL is left running, orphaned). */
  kill(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

async function waitUntilReady(url: string, child: ChildProcess, output: () => string) {
  const until = Date.now() + 90_000;
  while (Date.now() < until) {
    // A server killed by a signal has a signal code and no exit code.
    const ended = child.exitCode ?? child.signalCode;
    if (ended !== null) throw new Error(`the server exited early (${ended}):\n${output()}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the server did not become ready in 90 s:\n${output()}`);
}

/** A data folder for servers a test starts; as root it must be enterable by the postgres user. */
export async function makeDataDir(): Promise<string> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "assay-e2e-"));
  await chmod(dataDir, 0o711);
  return dataDir;
}

/**
 * The real server as `npm start` runs it (the built CLI), with its own embedded PostgreSQL in a
 * temporary data folder, or in `dataDir`; the folder is removed on stop unless the caller keeps
 * it (`keepDataDir`, by default when it gave `dataDir`). Demo data is off unless `env` turns it
 * on.
 */
export async function startE2eServer(
  env: Record<string, string> = {},
  options: { dataDir?: string; keepDataDir?: boolean; publicHostname?: string } = {},
): Promise<E2eServer> {
  const dataDir = options.dataDir ?? (await makeDataDir());
  const keepDataDir = options.keepDataDir ?? options.dataDir !== undefined;
  // The free port is chosen before the server binds it: another server's PostgreSQL may take it
  // in between (CI at c1eae92), which the server refuses in words; then another port is tried.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnFreePort(env, options, dataDir, keepDataDir);
    } catch (error) {
      if (attempt === 3 || !String(error).includes("is already in use")) throw error;
    }
  }
}

async function startOnFreePort(
  env: Record<string, string>,
  options: { publicHostname?: string },
  dataDir: string,
  keepDataDir: boolean,
): Promise<E2eServer> {
  const port = await freePort();
  let log = "";
  const child = spawn(process.execPath, [path.join(repoRoot, "apps/cli/dist/main.js"), "start"], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? "",
      PORT: String(port),
      // Sign-in redirects to this origin; the tests open the server at 127.0.0.1 (publicHostname:
      // the same server under another name, as a user who opened another address than it).
      ASSAY_PUBLIC_URL: `http://${options.publicHostname ?? "127.0.0.1"}:${port}`,
      ASSAY_DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      ASSAY_DEMO: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (log += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const output = () => log;
  await waitUntilReady(url, child, output);
  return {
    url,
    dataDir,
    output,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await exited;
      }
      if (!keepDataDir) await rm(dataDir, { recursive: true, force: true });
    },
    kill: async () => {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGKILL");
      await exited;
    },
  };
}

/**
 * The server with the demo data of a fresh `npm start`. The demo is loaded once per e2e run (a
 * minute on a busy machine), into a folder that each caller gets a copy of: its server starts on
 * the copy, as a restarted `npm start` would, and changes only its own.
 */
export async function startDemoServer(env: Record<string, string> = {}): Promise<E2eServer> {
  const template = path.join(inject("demoTemplate"), "data");
  if (!existsSync(path.join(template, "loaded"))) {
    // What an earlier journey's failed load left goes: this one loads the demo again.
    await rm(template, { recursive: true, force: true });
    await mkdir(template, { mode: 0o711 });
    const loading = await startE2eServer({ ASSAY_DEMO: "1" }, { dataDir: template });
    try {
      await untilDemoLoaded(loading);
    } finally {
      await loading.stop();
    }
    // The folder is copied whole: its PostgreSQL must have shut down (no postmaster.pid left).
    const pidFile = path.join(template, "postgres", "pg", "postmaster.pid");
    for (let i = 0; existsSync(pidFile); i += 1) {
      if (i > 120) throw new Error("the demo's PostgreSQL did not stop in 30 s");
      await new Promise((r) => setTimeout(r, 250));
    }
    await writeFile(path.join(template, "loaded"), "");
  }
  const dataDir = await makeDataDir();
  // -a: PostgreSQL's files keep their owner (as root, the postgres user) and modes.
  await promisify(execFile)("cp", ["-a", `${template}/.`, dataDir]);
  return startE2eServer({ ASSAY_DEMO: "1", ...env }, { dataDir, keepDataDir: false });
}

/**
 * Until the demo has loaded (GET /v1/instance) and its retention pass, which follows, has
 * finished (GET /v1/retention): the folder is copied whole, so nothing may be left half done.
 */
async function untilDemoLoaded(server: E2eServer): Promise<void> {
  const until = Date.now() + 280_000;
  const read = async <T>(route: string) =>
    (await (await fetch(`${server.url}${route}`)).json()) as T;
  for (;;) {
    const instance = await read<{ demo_loaded_at?: string | null }>("/v1/instance");
    if (instance.demo_loaded_at) {
      const { lastPass } = await read<{ lastPass: { state: string } | null }>("/v1/retention");
      if (lastPass?.state === "finished") return;
    }
    if (Date.now() > until) {
      throw new Error(`the demo and its retention pass did not finish:\n${server.output()}`);
    }
    await new Promise((r) => setTimeout(r, 2000));
  }
}
