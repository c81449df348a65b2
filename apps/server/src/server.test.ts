import net from "node:net";
import { pino } from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";
import { buildTestApp } from "../test/build-test-app.js";
import { temporaryFolder } from "../test/temporary-folder.js";
import { createTestDatabase, type TestDatabase } from "../test/test-database.js";
import { EXAMPLE_CONFIG_PATH, loadConfig } from "./config.js";
import { startServer } from "./server.js";

const log = pino({ level: "silent" });
let database: TestDatabase | undefined;
afterEach(async () => {
  await database?.drop();
  database = undefined;
});

// startServer creates the objects folder under ASSAY_DATA_DIR: keep it out of the work tree.
const dataDir = temporaryFolder("assay-server-test-");

async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

/** The server's configuration on the test database and `port`, with `env` added. */
const configFor = (db: TestDatabase, port: number, env: Record<string, string> = {}) =>
  loadConfig({
    DATABASE_URL: db.url,
    PORT: String(port),
    ASSAY_CONFIG: EXAMPLE_CONFIG_PATH,
    ASSAY_DATA_DIR: dataDir,
    ...env,
  });

describe("startServer", () => {
  it("migrates an external database, serves, and stops", async () => {
    database = await createTestDatabase({ migrated: false });
    const port = await freePort();
    const config = configFor(database, port);
    const server = await startServer(config, log);
    try {
      expect(server.url).toBe(`http://localhost:${port}`);
      const res = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(res.status).toBe(200);
    } finally {
      await server.close();
    }
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  });

  it("says ready only once its first admin exists, so a sign-in at once finds the account", async () => {
    database = await createTestDatabase();
    const port = await freePort();
    const config = configFor(database, port, {
      ASSAY_ADMIN_EMAIL: "lead@example.com",
      ASSAY_ADMIN_PASSWORD: "correct-horse-battery-staple",
    });
    const starting = startServer(config, log);
    // Polled as a test harness or a load balancer does, from before the server listens.
    const answers: number[] = [];
    let users: number | undefined;
    const until = Date.now() + 60_000;
    while (users === undefined && Date.now() < until) {
      const status = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (res) => res.status,
        () => 0,
      );
      answers.push(status);
      if (status === 200) {
        const { rows } = await database.db.pool.query<{ n: string }>(
          "SELECT count(*) AS n FROM users",
        );
        users = Number(rows[0]!.n);
      } else await new Promise((r) => setTimeout(r, 2));
    }
    const server = await starting;
    try {
      expect(users).toBe(1);
      // It listened before it was ready: the 503 while the admin was made was seen.
      expect(answers).toContain(503);
    } finally {
      await server.close();
    }
  });

  it("fails whole when the port is taken, leaving nothing listening or connected", async () => {
    database = await createTestDatabase();
    const blocker = net.createServer().listen(0, "127.0.0.1");
    await new Promise((r) => blocker.once("listening", r));
    const { port } = blocker.address() as net.AddressInfo;
    const config = configFor(database, port);
    const connections = async () => {
      const { rows } = await database!.db.pool.query(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database()",
      );
      return rows[0].n as number;
    };
    const before = await connections();
    try {
      await expect(startServer(config, log)).rejects.toMatchObject({ code: "EADDRINUSE" });
    } finally {
      blocker.close();
    }
    // A closed connection leaves pg_stat_activity a moment after the client hangs up.
    await vi.waitFor(async () => expect(await connections()).toBe(before), { timeout: 3000 });
  });
});

describe("graceful shutdown", () => {
  it("finishes a request that is in flight when the server is asked to stop", async () => {
    database = await createTestDatabase();
    const { app } = await buildTestApp(database.db);
    app.get("/v1/test-only/slow", async () => {
      await new Promise((r) => setTimeout(r, 300));
      return { done: true };
    });
    await app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = app.server.address() as net.AddressInfo;
    const inFlight = fetch(`http://127.0.0.1:${port}/v1/test-only/slow`);
    await new Promise((r) => setTimeout(r, 50));
    const closed = app.close();
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ done: true });
    await closed;
  });
});
