import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { rm } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it, type TestContext } from "vitest";
import { makeDataDir } from "../../../e2e/support/server.js";

// Every documented way to start Assay must stop the server and its embedded PostgreSQL when only
// the top process is signalled (what systemd, a container runtime or a process manager does), and
// when that process is killed outright (SIGKILL: its parent dies). `npm start` builds first, and
// a build rewrites the web app's files, so its cases run one at a time, before the others, which
// run side by side.
const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));

const WAYS = {
  "npm start": ["npm", ["start"]],
  "npx assay start": ["npx", ["assay", "start"]],
  "node apps/cli/dist/main.js start": [process.execPath, ["apps/cli/dist/main.js", "start"]],
} as const satisfies Record<string, readonly [string, readonly string[]]>;
type Way = keyof typeof WAYS;
const SIGNALS = ["SIGTERM", "SIGINT", "SIGKILL"] as const;
type Signal = (typeof SIGNALS)[number];
const casesOf = (ways: Way[]) =>
  ways.flatMap((way) => SIGNALS.map((signal) => [way, signal] as [Way, Signal]));

interface Started {
  top: ChildProcess;
  port: number;
  dataDir: string;
  output: () => string;
}

async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

/** Whether anything accepts connections on the port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** The processes of the started tree (its own process group), as "pid args" lines. */
function group(top: ChildProcess): string[] {
  const lines = execFileSync("ps", ["-eo", "pgid=,pid=,args="], { encoding: "utf8" }).split("\n");
  return lines
    .map((line) => line.trim().split(/\s+/))
    .filter(([pgid]) => Number(pgid) === top.pid)
    .map(([, ...rest]) => rest.join(" "));
}

/** PostgreSQL processes serving the data folder, wherever they are. */
function postgresOf(dataDir: string): string[] {
  const lines = execFileSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" }).split("\n");
  return lines.filter((line) => line.includes("postgres") && line.includes(`-D ${dataDir}/`));
}

/** Starts Assay one way, until /readyz answers; whatever is left is removed when the test ends. */
async function start(way: Way, context: TestContext, retries = 2): Promise<Started> {
  const { onTestFinished } = context;
  const [command, args] = WAYS[way];
  const dataDir = await makeDataDir();
  const port = await freePort();
  let log = "";
  // As a user's shell would: no npm variables of the test run, and a process group of its own,
  // so that the test signals the top process alone (a terminal's Ctrl-C would signal them all).
  const top = spawn(command, args, {
    cwd: repoRoot,
    detached: true,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      PORT: String(port),
      ASSAY_DATA_DIR: dataDir,
      ASSAY_DEMO: "0",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  top.stdout?.on("data", (chunk: Buffer) => (log += chunk.toString()));
  top.stderr?.on("data", (chunk: Buffer) => (log += chunk.toString()));
  onTestFinished(async () => {
    // Whatever a failed case left behind: the tree's group, then its data folder.
    if (top.pid !== undefined && group(top).length > 0) process.kill(-top.pid, "SIGKILL");
    for (const line of postgresOf(dataDir))
      process.kill(Number(line.trim().split(/\s+/)[0]), "SIGKILL");
    await rm(dataDir, { recursive: true, force: true });
    // Removing a cluster's folder takes long on a busy machine.
  }, 120_000);
  const until = Date.now() + 600_000;
  while (Date.now() < until) {
    if (top.exitCode !== null) {
      // The port freePort() found was taken before the server listened (outgoing connections'
      // local ports come from the same range): start again on another one.
      if (log.includes("is already in use") && retries > 0) return start(way, context, retries - 1);
      throw new Error(`${way} exited early:\n${log}`);
    }
    // Up, and done starting: /readyz answers while the first admin is still being made, before
    // start installs its signal handlers (a signal then ends Node at once; its watcher stops
    // PostgreSQL). The last start-up line says it is running.
    const ready =
      log.includes("Press Ctrl-C to stop.") &&
      (await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (res) => res.ok,
        () => false,
      ));
    if (ready) return { top, port, dataDir, output: () => log };
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${way} was not ready in 600 s:\n${log}`);
}

/**
 * Starts Assay, checks that the test sees its server and PostgreSQL, sends `signal` to the top
 * process (or to its whole group, as a terminal's Ctrl-C does), and expects nothing left.
 */
async function stopsOn(way: Way, signal: Signal, context: TestContext, whole = false) {
  const { expect } = context;
  const { top, port, dataDir, output } = await start(way, context);
  expect(await listening(port)).toBe(true);
  expect(postgresOf(dataDir)).toHaveLength(1);
  const before = group(top);
  expect(before.some((line) => line.includes(path.join("node_modules", ".bin", "assay"))))
    // npx runs the bin; npm start and the built CLI run dist/main.js.
    .toBe(way === "npx assay start");

  process.kill(whole ? -top.pid! : top.pid!, signal);
  const until = Date.now() + 30_000;
  while (Date.now() < until) {
    if (group(top).length === 0 && postgresOf(dataDir).length === 0) break;
    await new Promise((r) => setTimeout(r, 250));
  }

  const report = `before:\n${before.join("\n")}\noutput:\n${output()}`;
  expect(group(top), report).toEqual([]);
  expect(postgresOf(dataDir), report).toEqual([]);
  expect(await listening(port)).toBe(false);
  return output();
}

const STOP_TIMEOUT = 660_000;

describe("stopping Assay by signalling the process that started it", () => {
  // One at a time: each `npm start` rebuilds the web app the other cases serve.
  describe.sequential("npm start", () => {
    it.for(casesOf(["npm start"]))(
      "%s: %s to the top process alone stops Node and PostgreSQL",
      { timeout: STOP_TIMEOUT },
      async ([way, signal], context) => void (await stopsOn(way, signal, context)),
    );
  });

  describe.concurrent("npx assay start and the built CLI", () => {
    it.for(casesOf(["npx assay start", "node apps/cli/dist/main.js start"]))(
      "%s: %s to the top process alone stops Node and PostgreSQL",
      { timeout: STOP_TIMEOUT },
      async ([way, signal], context) => void (await stopsOn(way, signal, context)),
    );

    // npm passes Ctrl-C on to its shell as well, which Assay sees as a second SIGINT: it must not
    // cut the stop short (exiting at once would leave PostgreSQL to its watcher).
    it(
      "npx assay start: SIGINT to the whole group (a terminal's Ctrl-C) stops once, in order",
      { timeout: STOP_TIMEOUT },
      async (context) => {
        const output = await stopsOn("npx assay start", "SIGINT", context, true);
        context.expect(output).toContain("Received SIGINT: finishing open requests");
        context.expect(output).not.toContain("exiting without waiting");
      },
    );
  });
});
