import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { makeDataDir, startE2eServer } from "../../../e2e/support/server.js";

// Issue 31.7: a start that fails on its keys prints one line saying what to do, no stack trace.
// A server sets up its database under one ASSAY_SECRET_KEY; started again with another, it stops
// with that line and exit code 1. With TEST_DATABASE_URL the database is a fresh one there
// (quicker), else the embedded PostgreSQL of a temporary data folder.
const bin = fileURLToPath(new URL("../bin/assay.js", import.meta.url));
const admin = process.env.TEST_DATABASE_URL;
const database = `assay_cli_start_key_${process.pid}`;
const databaseUrl = admin
  ? Object.assign(new URL(admin), { pathname: `/${database}` }).toString()
  : undefined;
const dataDirs: string[] = [];

async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(sql).finally(() => client.end());
}

afterAll(async () => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  if (admin) await adminQuery(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
}, 60_000);

describe("assay start with another secret key", { timeout: 180_000 }, () => {
  it("stops with one line saying which key to set, and no stack trace", async () => {
    if (admin) await adminQuery(`CREATE DATABASE ${database}`);
    const dataDir = await makeDataDir();
    dataDirs.push(dataDir);
    const dbEnv: Record<string, string> = databaseUrl ? { DATABASE_URL: databaseUrl } : {};
    const first = await startE2eServer(
      { ...dbEnv, ASSAY_SECRET_KEY: randomBytes(32).toString("base64") },
      { dataDir },
    );
    await first.stop();

    const result = spawnSync(process.execPath, [bin, "start"], {
      cwd: tmpdir(),
      env: {
        PATH: process.env.PATH ?? "",
        ...dbEnv,
        ASSAY_DATA_DIR: dataDir,
        ASSAY_SECRET_KEY: randomBytes(32).toString("base64"),
        PORT: String(await freePort()),
        LOG_LEVEL: "warn",
      },
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(result.status, result.stderr).toBe(1);
    const lines = result.stderr.trim().split("\n");
    expect(lines.at(-1)).toBe(
      "assay: cannot start: the sign-in keys in the database were sealed with another secret key: set ASSAY_SECRET_KEY (or <ASSAY_DATA_DIR>/secret-key) to the key this database was set up with; every server on one database needs the same one.",
    );
    expect(result.stderr).not.toMatch(/\n\s+at |unexpected error/);
  });
});
