import { buildTokenLookup } from "../src/modules/builds/build-env.js";
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { EXAMPLE_CONFIG_PATH } from "../src/config.js";
import type { Principal } from "../src/modules/auth/access.js";
import { serviceTokenResolver } from "../src/modules/auth/bearer.js";
import type { RunnerDeps } from "../src/modules/builds/builds.runner.js";
import { insertUser } from "../src/modules/users/users.repo.js";
import { buildTestApp } from "./build-test-app.js";
import type { TestDatabase } from "./test-database.js";

/** The test runner every list runs (test/fixtures/builds/runner.mjs), with a fixed argv. */
export const RUNNER_ARGV = [
  "node",
  "apps/server/test/fixtures/builds/runner.mjs",
  "--fixed",
  "argv",
];

/** A free port on 127.0.0.1, so the app's ASSAY_PUBLIC_URL can be set before it listens. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface BuildApp {
  app: FastifyInstance;
  url: string;
  user: Extract<Principal, { kind: "user" }>;
  dataDir: string;
  close(): Promise<void>;
}

export async function insertBuildUser(database: TestDatabase, email = "qa@example.com") {
  const row = await insertUser(database.db.kysely, {
    email,
    name: "QA Engineer",
    passwordHash: "x",
    admin: false,
  });
  return { kind: "user" as const, id: Number(row.id), email, name: "QA Engineer", admin: false };
}

/**
 * The real app, listening on 127.0.0.1, whose build lists run the test runner on the local
 * executor (or the executors given). Requests are from `user` unless they carry a build token,
 * which the real resolver checks; `signedOut` makes them anonymous.
 */
export async function buildBuildApp(
  database: TestDatabase,
  options: {
    user: Extract<Principal, { kind: "user" }>;
    builds?: string;
    executors?: RunnerDeps["executors"];
    serverEnv?: NodeJS.ProcessEnv;
    dataDir?: string;
    startWorkers?: boolean;
    /** More of the server's environment (e.g. ASSAY_WEBHOOK_ALLOW_PRIVATE). */
    env?: Record<string, string>;
  },
): Promise<BuildApp> {
  const port = await freePort();
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), "assay-builds-")));
  const local = `{ kind: local, command: ${JSON.stringify(RUNNER_ARGV)}, requires: [] }`;
  const builds =
    options.builds ??
    `builds:\n  executors: { frontend: ${local}, china: ${local}, backend: ${local}, load: ${local} }\n  rateLimit: { builds: 50, perMinutes: 1 }\n`;
  const configFile = path.join(dataDir, "assay.config.yaml");
  await writeFile(configFile, `${readFileSync(EXAMPLE_CONFIG_PATH, "utf8")}\n${builds}`);
  const tokens = serviceTokenResolver(
    database.db.kysely,
    undefined,
    buildTokenLookup(database.db.kysely),
  );
  const { app } = await buildTestApp(database.db, {
    env: {
      ASSAY_CONFIG: configFile,
      ASSAY_PUBLIC_URL: `http://127.0.0.1:${port}`,
      ASSAY_DATA_DIR: dataDir,
      ...options.env,
    },
    resolvePrincipal: async (request) =>
      request.headers.authorization
        ? tokens(request)
        : request.headers["x-test-signed-out"]
          ? undefined
          : options.user,
    buildExecutors: options.executors,
    serverEnv: options.serverEnv,
    startWorkers: options.startWorkers,
  });
  await app.listen({ port, host: "127.0.0.1" });
  return {
    app,
    url: `http://127.0.0.1:${port}`,
    user: options.user,
    dataDir,
    close: async () => {
      await app.close();
      // A build process killed by the close may still write its log for a moment (ENOTEMPTY).
      if (!options.dataDir)
        await rm(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    },
  };
}

/** Polls GET /v1/builds/{id} until the build has ended (or the wait runs out). */
export async function waitForEnd(app: FastifyInstance, id: number, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const build = (await app.inject({ method: "GET", url: `/v1/builds/${id}` })).json();
    if (build.buildStatus !== "IN_PROGRESS" || Date.now() > until) return build;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The runner's report of what it received: the RUNNER line of the build log. */
export function runnerReport(log: string): { argv: string[]; env: Record<string, string> } {
  const line = log.split("\n").find((l) => l.startsWith("RUNNER "));
  if (!line) throw new Error(`no RUNNER line in the log:\n${log}`);
  return JSON.parse(line.slice("RUNNER ".length));
}
