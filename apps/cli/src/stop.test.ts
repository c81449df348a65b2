import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { rm } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { makeDataDir } from "../../../e2e/support/server.js";

// Every documented way to start Assay must stop the server and its embedded PostgreSQL when only
// the top process is signalled (what systemd, a container runtime or a process manager does), and
// when that process is killed outright. `npm start` builds first, so its cases take minutes.
const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));

const WAYS: Record<string, [string, string[]]> = {
  "npm start": ["npm", ["start"]],
  "npx assay start": ["npx", ["assay", "start"]],
  "node apps/cli/dist/main.js start": [process.execPath, ["apps/cli/dist/main.js", "start"]],
};
const SIGNALS = ["SIGTERM", "SIGINT", "SIGKILL"] as const;
// Not `npx assay start` with SIGINT to npm alone: npm exec runs the command through `sh -c`, and
// a shell given SIGINT waits for its command to end, so the signal reaches nothing Assay runs
// (README, "Stopping"). Ctrl-C in a terminal signals every process of the group, server included.
const CASES = Object.keys(WAYS)
  .flatMap((way) => SIGNALS.map((signal) => [way, signal] as const))
  .filter(([way, signal]) => !(way === "npx assay start" && signal === "SIGINT"));

interface Started {
  top: ChildProcess;
  port: number;
  dataDir: string;
  output: () => string;
}
let started: Started | undefined;

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

async function start(way: string): Promise<Started> {
  const [command, args] = WAYS[way]!;
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
  started = { top, port, dataDir, output: () => log };
  const until = Date.now() + 300_000;
  while (Date.now() < until) {
    if (top.exitCode !== null) throw new Error(`${way} exited early:\n${log}`);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (res) => res.ok,
      () => false,
    );
    if (ready) return started;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${way} was not ready in 300 s:\n${log}`);
}

afterEach(async () => {
  if (!started) return;
  const { top, dataDir } = started;
  started = undefined;
  // Whatever a failed case left behind: the tree's group, then its data folder.
  if (top.pid !== undefined && group(top).length > 0) process.kill(-top.pid, "SIGKILL");
  for (const line of postgresOf(dataDir))
    process.kill(Number(line.trim().split(/\s+/)[0]), "SIGKILL");
  await rm(dataDir, { recursive: true, force: true });
});

describe("stopping Assay by signalling the process that started it", () => {
  it.each(CASES)(
    "%s: %s to the top process alone stops Node and PostgreSQL",
    async (way, signal) => {
      const { top, port, dataDir, output } = await start(way);
      expect(postgresOf(dataDir)).not.toEqual([]);
      const before = group(top);

      top.kill(signal);
      const until = Date.now() + 30_000;
      while (Date.now() < until) {
        if (group(top).length === 0 && postgresOf(dataDir).length === 0) break;
        await new Promise((r) => setTimeout(r, 250));
      }

      const context = `before:\n${before.join("\n")}\noutput:\n${output()}`;
      expect(group(top), context).toEqual([]);
      expect(postgresOf(dataDir), context).toEqual([]);
      expect(await listening(port)).toBe(false);
    },
    360_000,
  );
});

describe("the test's own check", () => {
  it("sees the server and PostgreSQL of a data folder while they run", async () => {
    const { top, port, dataDir } = await start("node apps/cli/dist/main.js start");
    expect(await listening(port)).toBe(true);
    expect(group(top).some((line) => line.includes(path.join("cli", "dist", "main.js")))).toBe(
      true,
    );
    expect(postgresOf(dataDir)).toHaveLength(1);
  }, 120_000);
});
