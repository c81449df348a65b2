import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import { createDb, type Db } from "../src/db/pool.js";

export interface TestDatabase {
  url: string;
  db: Db;
  /** Closes the pool and drops the database. */
  drop(): Promise<void>;
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: inject("databaseAdminUrl") });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function urlFor(database: string): string {
  const u = new URL(inject("databaseAdminUrl"));
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * The test pool's sessions do not wait for each commit's WAL flush (synchronous_commit=off): on
 * CI's disk a commit then takes ~0.5 ms instead of ~5.5 ms, and the server suite commits tens of
 * thousands of times. Only a crash of PostgreSQL itself could lose the last commits, which no
 * server test makes (the crash campaigns are in the cli project, on clusters of their own);
 * what other sessions see is unchanged. `url` keeps the durable default: startServer, given it,
 * refuses a database that does not flush (assertDurable), and child processes use it as is.
 */
function withoutCommitFlush(url: string): string {
  const u = new URL(url);
  u.searchParams.set("options", "-c synchronous_commit=off");
  return u.toString();
}

/**
 * A database of its own for one test file: a copy of the migrated template, or an empty one
 * (`migrated: false`) for tests of the migrations themselves.
 */
export async function createTestDatabase(
  options: { migrated?: boolean } = {},
): Promise<TestDatabase> {
  const name = `assay_test_${randomBytes(6).toString("hex")}`;
  const template = options.migrated === false ? "template0" : inject("templateDatabase");
  await adminQuery(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  const url = urlFor(name);
  const db = createDb(withoutCommitFlush(url), 4);
  return {
    url,
    db,
    drop: async () => {
      await db.close();
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
