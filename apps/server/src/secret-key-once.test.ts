import { mkdtempSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { pino } from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createTestDatabase, type TestDatabase } from "../test/test-database.js";
import { temporaryFolder } from "../test/temporary-folder.js";
import { EXAMPLE_CONFIG_PATH, loadConfig } from "./config.js";
import { loadSecretKey } from "./secret-key.js";
import { startServer } from "./server.js";

// The server project shares modules between the files a worker runs (isolate: false): an
// earlier file may have loaded server.js with the real secret-key.js, which this mock would then
// not reach. A fresh module registry for this file makes its imports see the mock.
vi.hoisted(() => vi.resetModules());
// loadSecretKey, counted: the real one, so the key file is made and read as on a real start.
vi.mock("./secret-key.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("./secret-key.js")>();
  return { ...original, loadSecretKey: vi.fn(original.loadSecretKey) };
});

const dataDirs = temporaryFolder("assay-secret-once-");
let database: TestDatabase | undefined;
afterEach(async () => {
  await database?.drop();
  database = undefined;
});

async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

describe("the secret key", () => {
  it("is read once per start, and the provider's keys, the app and sign-in all use that one", async () => {
    database = await createTestDatabase({ migrated: false });
    const config = loadConfig({
      DATABASE_URL: database.url,
      PORT: String(await freePort()),
      ASSAY_CONFIG: EXAMPLE_CONFIG_PATH,
      // No ASSAY_SECRET_KEY: the key is made in, then read from, the data folder.
      ASSAY_DATA_DIR: mkdtempSync(path.join(dataDirs, "data-")),
    });
    const server = await startServer(config, pino({ level: "silent" }));
    try {
      // The embedded provider works with it: its discovery document and public keys answer.
      const keys = await fetch(`http://127.0.0.1:${config.port}/oidc/jwks`);
      expect(keys.status).toBe(200);
      expect(loadSecretKey).toHaveBeenCalledTimes(1);
    } finally {
      await server.close();
    }
  });
});
