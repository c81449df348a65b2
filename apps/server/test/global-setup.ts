import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { pino } from "pino";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "../src/db/embedded-postgres.js";
import { migrate } from "../src/db/migrate.js";
import { Jobs } from "../src/jobs/jobs.js";

/**
 * One PostgreSQL per test run: the embedded one, or TEST_DATABASE_URL (an external server, as
 * CI sets it). A migrated template database is made once; each test file copies it, which takes
 * milliseconds instead of re-running the migrations.
 */
declare module "vitest" {
  export interface ProvidedContext {
    databaseAdminUrl: string;
    templateDatabase: string;
  }
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function admin<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export default async function setup(project: TestProject) {
  let embedded: EmbeddedDatabase | undefined;
  let folder: string | undefined;
  let adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    folder = await mkdtemp(path.join(tmpdir(), "assay-test-pg-"));
    // As root, PostgreSQL runs as the postgres user, which must be able to enter the folder.
    await chmod(folder, 0o711);
    embedded = await startEmbeddedPostgres(folder, pino({ level: "warn" }));
    adminUrl = embedded.adminUrl;
  }
  const template = `assay_template_${process.pid}`;
  await admin(adminUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${template}`);
    await client.query(`CREATE DATABASE ${template}`);
  });
  const pool = new pg.Pool({ connectionString: withDatabase(adminUrl, template), max: 1 });
  try {
    await migrate(pool);
    // pg-boss installs its schema on its first start; doing it once here keeps test apps quick.
    const jobs = await Jobs.start(pool, pino({ level: "warn" }));
    await jobs.stop();
  } finally {
    await pool.end();
  }
  project.provide("databaseAdminUrl", adminUrl);
  project.provide("templateDatabase", template);

  return async () => {
    const url = adminUrl as string;
    await admin(url, (client) => client.query(`DROP DATABASE IF EXISTS ${template}`)).catch(
      () => undefined,
    );
    await embedded?.stop();
    if (folder) await rm(folder, { recursive: true, force: true });
  };
}
