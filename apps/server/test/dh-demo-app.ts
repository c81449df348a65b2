import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { DhRun } from "@assay/core";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { loadDhDemo } from "../src/demo/dh-demo.js";
import { buildTestApp, type TestApp } from "./build-test-app.js";
import { QA_USER } from "./tag-apps.js";
import { createTestDatabase, type TestDatabase } from "./test-database.js";

/**
 * What the data harmonization tests share: the demo's stores (schemas in a fresh test database,
 * NDJSON files in a data folder) behind the real app, signed in and not, and Run Report
 * followed to its end.
 */
export interface DhDemoApp {
  database: TestDatabase;
  dataDir: string;
  /** The signed-in app with its configuration (the example's data harmonization settings). */
  testApp: TestApp;
  user: FastifyInstance;
  anonymous: FastifyInstance;
  /** POST /v1/dh/runs (Run Report) as `app`, the signed-in user by default. */
  start(payload: Record<string, unknown>, app?: FastifyInstance): Promise<LightMyRequestResponse>;
  /** The run once done or failed (polled; throws with its state after about 15 s). */
  finished(id: number): Promise<DhRun>;
  close(): Promise<void>;
}

export async function startDhDemoApp(): Promise<DhDemoApp> {
  const database = await createTestDatabase();
  const dataDir = await mkdtemp(path.join(tmpdir(), "assay-dh-"));
  await loadDhDemo(database.db, dataDir);
  const env = { ASSAY_DATA_DIR: dataDir };
  const testApp = await buildTestApp(database.db, { env, resolvePrincipal: async () => QA_USER });
  const user = testApp.app;
  const anonymous = (
    await buildTestApp(database.db, { env, resolvePrincipal: async () => undefined })
  ).app;
  const read = async (id: number) =>
    (await user.inject({ method: "GET", url: `/v1/dh/runs/${id}` })).json<DhRun>();
  return {
    database,
    dataDir,
    testApp,
    user,
    anonymous,
    start: (payload, app = user) => app.inject({ method: "POST", url: "/v1/dh/runs", payload }),
    async finished(id) {
      for (let i = 0; i < 150; i++) {
        const run = await read(id);
        if (run.state === "done" || run.state === "failed") return run;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`run ${id} did not finish: ${JSON.stringify(await read(id)).slice(0, 600)}`);
    },
    async close() {
      await user.close();
      await anonymous.close();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
