import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statfsSync, writeFileSync } from "node:fs";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../test/build-test-app.js";
import { QA_USER } from "../test/tag-apps.js";
import { fixturePart, storedCounts, upload } from "../test/upload.js";
import { importWithoutExitHooks } from "./db/embedded-postgres.js";
import { migrate } from "./db/migrate.js";
import { createDb, type Db } from "./db/pool.js";
import { isDatabaseFull } from "./database-down.js";

// PostgreSQL out of disk space, for real (issue #25): a PostgreSQL of the test's own whose
// database lives in a tablespace on a small tmpfs (root only; skipped where mount is refused),
// filled up to a few hundred kB by a file beside it. An upload that needs more is answered
// 507 database_full (no 500, no hang), stores nothing, reads go on being served; once the file
// is removed the same upload, with the same Idempotency-Key, is stored whole. The WAL stays on
// the cluster's own disk: a full WAL disk stops PostgreSQL (503, database-down.test.ts).

type Cluster = InstanceType<Awaited<ReturnType<typeof importWithoutExitHooks>>>;
const mountPoint = mkdtempSync(path.join(tmpdir(), "assay-pg-full-"));
let skipReason = "";
if (process.getuid?.() !== 0) skipReason = "not root: cannot mount a tmpfs";
else {
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=64m,mode=0755", "tmpfs", mountPoint]);
  } catch (error) {
    skipReason = `mount -t tmpfs was refused (${(error as Error).message.split("\n")[0]})`;
  }
}
const filler = path.join(mountPoint, "filler");

let dir: string;
let cluster: Cluster | undefined;
let db: Db | undefined;
let app: FastifyInstance;

async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

/** A JUnit report of `count` tests with long names: a few MB of rows and index entries. */
function bigReport(count: number) {
  const cases = Array.from(
    { length: count },
    (_, i) => `<testcase classname="disk.Full${i % 50}" name="case ${i} ${"x".repeat(120)}"/>`,
  );
  return {
    name: "big.xml",
    content: `<?xml version="1.0"?><testsuite name="big">${cases.join("")}</testsuite>`,
  };
}

beforeAll(async () => {
  if (skipReason) return;
  dir = await mkdtemp(path.join(tmpdir(), "assay-pg-full-cluster-"));
  await chmod(dir, 0o711);
  const port = await freePort();
  const EmbeddedPostgres = await importWithoutExitHooks();
  cluster = new EmbeddedPostgres({
    databaseDir: path.join(dir, "pg"),
    user: "assay",
    password: "full-test",
    port,
    persistent: true,
    createPostgresUser: true,
    initdbFlags: ["--encoding=UTF8"],
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
    onLog: () => undefined,
    onError: () => undefined,
  });
  await cluster.initialise();
  await cluster.start();
  // The tablespace's folder belongs to the postgres user (created by initialise as root).
  const tablespace = path.join(mountPoint, "tablespace");
  mkdirSync(tablespace);
  execFileSync("chown", ["postgres:postgres", tablespace]);
  const admin = createDb(`postgres://assay:full-test@127.0.0.1:${port}/postgres`, 1);
  await admin.pool.query(`CREATE TABLESPACE small LOCATION '${tablespace}'`);
  await admin.pool.query("CREATE DATABASE assay_full TABLESPACE small");
  await admin.close();
  db = createDb(`postgres://assay:full-test@127.0.0.1:${port}/assay_full`, 4);
  await migrate(db.pool);
  ({ app } = await buildTestApp(db, { resolvePrincipal: async () => QA_USER }));
}, 120_000);

afterAll(async () => {
  await app?.close().catch(() => undefined);
  await db?.close().catch(() => undefined);
  await cluster?.stop().catch(() => undefined);
  if (!skipReason) {
    // PostgreSQL is stopped, nothing holds the tmpfs; lazily if something still did.
    try {
      execFileSync("umount", [mountPoint]);
    } catch {
      execFileSync("umount", ["-l", mountPoint]);
    }
  }
  rmSync(mountPoint, { recursive: true, force: true });
  if (dir) await rm(dir, { recursive: true, force: true });
}, 60_000);

// The reason for a skip is in the name vitest prints.
const title = skipReason
  ? `PostgreSQL out of disk space (skipped: ${skipReason})`
  : "PostgreSQL out of disk space";
describe.skipIf(skipReason !== "")(title, () => {
  it("answers 507 database_full, stores nothing, keeps serving reads, and takes the upload once space returns", async () => {
    const first = await upload(app, [fixturePart("junit", "jest-junit.xml")], {
      run_key: "before",
    });
    expect(first.statusCode, first.body).toBe(201);

    // Fill the tmpfs up to 256 kB: the tablespace can grow no further than that.
    const { bavail, bsize } = statfsSync(mountPoint);
    writeFileSync(filler, Buffer.alloc(Math.max(0, bavail * bsize - 256 * 1024)));
    const before = await storedCounts(db!.pool);
    const report = bigReport(8_000);
    const headers = { "idempotency-key": "disk-full-upload-1" };
    const started = Date.now();
    const full = await upload(app, [report], { run_key: "big" }, headers);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(full.statusCode, full.body).toBe(507);
    expect(full.json()).toEqual({
      error: {
        code: "database_full",
        message:
          "The database is out of disk space; nothing of this request was stored. Free space on its disk and try again.",
      },
    });
    expect(await storedCounts(db!.pool)).toEqual(before);

    // Reads are served while the disk is full.
    const list = await app.inject({ method: "GET", url: "/v1/test-runs" });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.body).toContain('"before"');
    const ready = await app.inject({ method: "GET", url: "/readyz" });
    expect(ready.statusCode).toBe(200);

    // Space returns: the same upload, same key, is stored whole (the failure was not kept as
    // the key's answer).
    rmSync(filler);
    const retried = await upload(app, [report], { run_key: "big" }, headers);
    expect(retried.statusCode, retried.body).toBe(201);
    expect(retried.json()).toMatchObject({ test_run_key: "big", counts: { total: 8_000 } });
    const stored = await db!.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM results x JOIN runs r ON r.id = x.run_id WHERE r.test_run_key = 'big'",
    );
    expect(stored.rows[0]!.n).toBe(8_000);
  }, 120_000);
});

describe("isDatabaseFull", () => {
  it("knows PostgreSQL's disk_full, not a lost connection or a bad query", () => {
    expect(isDatabaseFull(Object.assign(new Error("could not extend"), { code: "53100" }))).toBe(
      true,
    );
    expect(isDatabaseFull(new Error("wrapped", { cause: { code: "53100" } }))).toBe(true);
    expect(isDatabaseFull(Object.assign(new Error("refused"), { code: "ECONNREFUSED" }))).toBe(
      false,
    );
    expect(isDatabaseFull(Object.assign(new Error("syntax"), { code: "42601" }))).toBe(false);
  });
});
