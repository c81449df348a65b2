import { spawn, type ChildProcess } from "node:child_process";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

export interface E2eServer {
  url: string;
  output: () => string;
  stop(): Promise<void>;
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
    if (child.exitCode !== null) throw new Error(`the server exited early:\n${output()}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the server did not become ready in 90 s:\n${output()}`);
}

/**
 * The real server as `npm start` runs it (the built CLI), on a temporary data folder with its
 * own embedded PostgreSQL, or on TEST_DATABASE_URL's server when that is set.
 */
export async function startE2eServer(env: Record<string, string> = {}): Promise<E2eServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "assay-e2e-"));
  await chmod(dataDir, 0o711);
  const port = await freePort();
  let log = "";
  const child = spawn(process.execPath, [path.join(repoRoot, "apps/cli/dist/main.js"), "start"], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? "",
      PORT: String(port),
      ASSAY_DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
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
    output,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await exited;
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
