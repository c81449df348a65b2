import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "./embedded-postgres.js";

const log = pino({ level: "silent" });
let dir: string;
let running: EmbeddedDatabase | undefined;

async function selectOne(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ one: number }>("SELECT 1 AS one");
    return rows[0]?.one ?? 0;
  } finally {
    await client.end();
  }
}

function postmasterPid(): Promise<number> {
  return readFile(path.join(dir, "pg", "postmaster.pid"), "utf8").then((t) =>
    Number.parseInt(t.split("\n")[0] ?? "", 10),
  );
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "assay-embedded-"));
  await chmod(dir, 0o711);
});
afterAll(async () => {
  await running?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe("embedded PostgreSQL", () => {
  it("starts on 127.0.0.1, on a port other than 5432, and keeps its data across restarts", async () => {
    running = await startEmbeddedPostgres(dir, log);
    const port = Number(new URL(running.adminUrl).port);
    expect(new URL(running.adminUrl).hostname).toBe("127.0.0.1");
    expect(port).not.toBe(5432);
    const client = new pg.Client({ connectionString: running.adminUrl });
    await client.connect();
    await client.query("CREATE TABLE kept (x int); INSERT INTO kept VALUES (7)");
    await client.end();
    await running.stop();

    running = await startEmbeddedPostgres(dir, log);
    const again = new pg.Client({ connectionString: running.adminUrl });
    await again.connect();
    const { rows } = await again.query("SELECT x FROM kept");
    await again.end();
    expect(rows).toEqual([{ x: 7 }]);
  });

  it("uses the cluster of a running Assay process instead of starting another", async () => {
    const pid = await postmasterPid();
    const second = await startEmbeddedPostgres(dir, log);
    expect(second.adminUrl).toBe(running?.adminUrl);
    expect(await selectOne(second.adminUrl)).toBe(1);
    await second.stop();
    expect(isRunning(pid)).toBe(true);
  });

  it("stops PostgreSQL by itself when the Node process that started it is killed", async () => {
    await running?.stop();
    const child = await launchInChild();
    const pid = await postmasterPid();
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    const until = Date.now() + 15_000;
    while (isRunning(pid) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect(isRunning(pid)).toBe(false);
    running = await startEmbeddedPostgres(dir, log);
    expect(await selectOne(running.adminUrl)).toBe(1);
  });

  it("stops a PostgreSQL orphaned by a killed server and starts cleanly", async () => {
    await running?.stop();
    // What `kill -9` of the Node process and of its watch on PostgreSQL leaves (the OOM killer
    // may take both): PostgreSQL still running on the folder, its parent gone.
    const child = await launchInChild();
    const orphan = await postmasterPid();
    killWatchOf(orphan);
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    expect(isRunning(orphan)).toBe(true);
    running = await startEmbeddedPostgres(dir, log);
    expect(isRunning(orphan)).toBe(false);
    expect(await selectOne(running.adminUrl)).toBe(1);
  });

  /** Kills the shell that stops PostgreSQL when its Node process dies (what a crash of both does). */
  function killWatchOf(postmaster: number): void {
    const watch = execFileSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" })
      .split("\n")
      .find((line) => line.includes(`assay-postgres-watch ${postmaster} `));
    process.kill(Number.parseInt(watch ?? "", 10), "SIGKILL");
  }

  /** The built launcher in a child process, which a test then kills. */
  async function launchInChild() {
    const launcher = new URL("../../dist/db/embedded-postgres.js", import.meta.url).href;
    const child = spawn(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `import { startEmbeddedPostgres } from ${JSON.stringify(launcher)};
        import { pino } from "pino";
        await startEmbeddedPostgres(${JSON.stringify(dir)}, pino({ level: "silent" }));
        process.stdout.write("up\\n");
        setInterval(() => {}, 1000);`,
      ],
      {
        cwd: fileURLToPath(new URL("../..", import.meta.url)),
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    await new Promise((resolve) => child.stdout?.once("data", resolve));
    return child;
  }

  it("recovers from a stale postmaster.pid after both processes were killed", async () => {
    const pid = await postmasterPid();
    killWatchOf(pid);
    process.kill(pid, "SIGKILL");
    while (isRunning(pid)) await new Promise((r) => setTimeout(r, 50));
    // A crash can leave a lock file naming a PID that now belongs to another program.
    const lock = path.join(dir, "pg", "postmaster.pid");
    const text = await readFile(lock, "utf8");
    await writeFile(lock, text.replace(/^\d+/, String(process.pid)));
    running = await startEmbeddedPostgres(dir, log);
    expect(await selectOne(running.adminUrl)).toBe(1);
  });

  it("keeps the exit code a process sets once embedded-postgres is loaded", () => {
    // embedded-postgres's own beforeExit hook ended every process with 0: a test run with failed
    // tests passed.
    const module = new URL("../../dist/db/embedded-postgres.js", import.meta.url).href;
    const script = `import(${JSON.stringify(module)}).then(async (m) => {
      await m.importWithoutExitHooks();
      process.exitCode = 3;
    });`;
    const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(child.stderr).toBe("");
    expect(child.status).toBe(3);
  });

  it("leaves no PostgreSQL process behind after stop", async () => {
    const pid = await postmasterPid();
    await running?.stop();
    running = undefined;
    expect(isRunning(pid)).toBe(false);
    const left = execFileSync("ps", ["-eo", "args"], { encoding: "utf8" }).split("\n");
    expect(left.filter((line) => line.includes(path.join(dir, "pg")))).toEqual([]);
  });
});
