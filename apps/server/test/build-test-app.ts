import { Writable } from "node:stream";
import type { FastifyInstance } from "fastify";
import { pino } from "pino";
import { buildApp } from "../src/app.js";
import { loadConfig, type Config, EXAMPLE_CONFIG_PATH } from "../src/config.js";
import type { Db } from "../src/db/pool.js";

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  /** Every log line the app wrote, parsed, so tests can assert what is (not) logged. */
  logs: Record<string, unknown>[];
}

/** The real app on a test database, with the example catalogue and captured logs. */
export async function buildTestApp(
  db: Db,
  options: { env?: Record<string, string>; webDistDir?: string } = {},
): Promise<TestApp> {
  const config = loadConfig({ ASSAY_CONFIG: EXAMPLE_CONFIG_PATH, ...options.env });
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) {
        logs.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  const logger = pino({ level: "info" }, sink);
  const app = await buildApp({ config, db, logger, webDistDir: options.webDistDir });
  return { app, config, logs };
}
