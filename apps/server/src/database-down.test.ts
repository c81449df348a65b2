import { chmod, mkdtemp, readFile, rm } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../test/build-test-app.js";
import { fixturePart, TEST_INGEST_TOKEN, upload } from "../test/upload.js";
import { importWithoutExitHooks } from "./db/embedded-postgres.js";
import { migrate } from "./db/migrate.js";
import { createDb, type Db } from "./db/pool.js";
import { isDatabaseDown } from "./database-down.js";

// PostgreSQL killed under a serving app (kill -9 of the postmaster, as the OOM killer does):
// requests that need it are answered 503 database_unavailable within 5 s, /readyz says why,
// and once PostgreSQL is back on its port the app serves again by itself, with every result
// acknowledged before the kill still there. A PostgreSQL of its own (the shared one stays up).

type Cluster = InstanceType<Awaited<ReturnType<typeof importWithoutExitHooks>>>;
let dir: string;
let cluster: Cluster;
let db: Db;
let app: FastifyInstance;

async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "assay-pg-down-"));
  // As root, PostgreSQL runs as the postgres user, which must enter the folder.
  await chmod(dir, 0o711);
  const port = await freePort();
  const EmbeddedPostgres = await importWithoutExitHooks();
  cluster = new EmbeddedPostgres({
    databaseDir: path.join(dir, "pg"),
    user: "assay",
    password: "down-test",
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
  db = createDb(`postgres://assay:down-test@127.0.0.1:${port}/postgres`, 4);
  await migrate(db.pool);
  ({ app } = await buildTestApp(db, { env: { ASSAY_INGEST_TOKEN: TEST_INGEST_TOKEN } }));
}, 120_000);

afterAll(async () => {
  await app?.close().catch(() => undefined);
  await db?.close().catch(() => undefined);
  await cluster?.stop().catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
}, 60_000);

const report = () => [fixturePart("junit", "jest-junit.xml")];

describe("PostgreSQL killed under a serving app", () => {
  it("answers 503 database_unavailable at once, says why in /readyz, and recovers by itself", async () => {
    const before = await upload(app, report(), { run_key: "acknowledged" });
    expect(before.statusCode, before.body).toBe(201);
    const stored = before.json<{ counts: { total: number } }>().counts.total;

    const pidFile = path.join(dir, "pg", "postmaster.pid");
    const pid = Number((await readFile(pidFile, "utf8")).split("\n")[0]);
    // A kept read (http/answer-cache.ts) holds its snapshot connection open across the kill.
    expect((await app.inject({ method: "GET", url: "/v1/test-runs" })).statusCode).toBe(200);
    process.kill(pid, "SIGKILL");
    // Its backends leave once they notice the postmaster is gone.
    await new Promise((r) => setTimeout(r, 1_000));

    const started = Date.now();
    const during = await upload(app, report(), { run_key: "during" });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(during.statusCode).toBe(503);
    expect(during.json()).toEqual({
      error: {
        code: "database_unavailable",
        message: "The database cannot be reached; try again in a few seconds.",
      },
    });
    expect(during.headers["retry-after"]).toBe("5");
    const read = await app.inject({ method: "GET", url: "/v1/test-runs" });
    expect(read.statusCode).toBe(503);
    expect(read.json()).toMatchObject({ error: { code: "database_unavailable" } });
    const ready = await app.inject({ method: "GET", url: "/readyz" });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ error: { code: "database_unavailable" } });

    await cluster.start();
    const back = Date.now();
    let status = 0;
    while (status !== 200 && Date.now() - back < 30_000) {
      status = (await app.inject({ method: "GET", url: "/readyz" })).statusCode;
      if (status !== 200) await new Promise((r) => setTimeout(r, 250));
    }
    expect(status).toBe(200);
    const after = await upload(app, report(), { run_key: "after" });
    expect(after.statusCode, after.body).toBe(201);
    const listed = await app.inject({ method: "GET", url: "/v1/test-runs" });
    expect(listed.json<{ items: { test_run_key: string }[] }>().items[0]?.test_run_key).toBe(
      "after",
    );
    const { rows } = await db.pool.query<{ key: string; n: number }>(
      `SELECT r.test_run_key AS key, count(x.id)::int AS n FROM runs r
         LEFT JOIN results x ON x.run_id = r.id GROUP BY 1 ORDER BY 1`,
    );
    expect(rows).toEqual([
      { key: "acknowledged", n: stored },
      { key: "after", n: stored },
    ]);
  }, 120_000);
});

describe("isDatabaseDown", () => {
  it("knows a refused connection, a shutdown and a pool timeout, not a bug or a bad query", () => {
    expect(isDatabaseDown(Object.assign(new Error("connect"), { code: "ECONNREFUSED" }))).toBe(
      true,
    );
    expect(isDatabaseDown(Object.assign(new Error("terminating"), { code: "57P01" }))).toBe(true);
    expect(isDatabaseDown(new Error("timeout exceeded when trying to connect"))).toBe(true);
    expect(
      isDatabaseDown(new AggregateError([Object.assign(new Error(), { code: "ECONNREFUSED" })])),
    ).toBe(true);
    expect(isDatabaseDown(Object.assign(new Error("syntax"), { code: "42601" }))).toBe(false);
    expect(isDatabaseDown(new TypeError("x is undefined"))).toBe(false);
  });
});
