import mysql from "mysql2/promise";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../../test/test-database.js";
import { reasonOf, type Connector } from "./connector.js";
import { MysqlConnector } from "./mysql.js";
import { PostgresConnector } from "./postgres.js";

/**
 * The SQL connectors against real servers: MariaDB on 127.0.0.1:3306 (root, no password; the
 * MySQL tests are skipped with a message when it does not answer) and the test PostgreSQL.
 */

const MYSQL_URL = process.env.TEST_MYSQL_URL ?? "mysql://root@127.0.0.1:3306";
const MYSQL_DB = `assay_dh_${process.pid}`;

async function mysqlReachable(): Promise<boolean> {
  try {
    const connection = await mysql.createConnection({ uri: MYSQL_URL, connectTimeout: 2_000 });
    await connection.end();
    return true;
  } catch {
    return false;
  }
}
const hasMysql = await mysqlReachable();
// The reason a run without MariaDB skips these tests, shown as the skipped suite's name.
const MYSQL_SUITE = hasMysql
  ? "MySQL (MariaDB)"
  : `MySQL (MariaDB): skipped, nothing answers at ${MYSQL_URL} (set TEST_MYSQL_URL)`;

const LEADS = [
  { lead_id: "L1", phone: "+1-555-0101" },
  { lead_id: "L2", phone: "+1-555-0102" },
  { lead_id: "L3", phone: "+1-555-0103" },
];

/** The same promises of every SQL connector, on a database holding subjects (5) and leads. */
function sqlContract(
  name: string,
  open: (options?: { timeoutMs?: number; url?: string }) => Connector,
  helpers: { killConnector: () => Promise<void>; badUrl: () => string },
) {
  describe(name, () => {
    it("counts a table and reads records by key, quoting names", async () => {
      const connector = open();
      try {
        expect(await connector.count("subjects")).toBe(5);
        const read = await connector.readRecords(
          "leads",
          { key: "lead_id", keys: ["L3", "L1", "nope"], columns: ["lead_id", "phone"] },
          10,
        );
        expect(read.records.map((r) => r.lead_id).sort()).toEqual(["L1", "L3"]);
        expect(read.truncated).toBe(false);
        // A name with a quote stays one quoted identifier: no statement is made of it.
        await expect(connector.count('subjects" ; drop table subjects; --')).rejects.toThrow();
        expect(await connector.count("subjects")).toBe(5);
      } finally {
        await connector.close();
      }
    });

    it("fails a missing table with the server's reason, and the row says what to check", async () => {
      const connector = open();
      try {
        const error = await connector.count("no_such_table").catch((e: unknown) => e as Error);
        expect(error).toBeInstanceOf(Error);
        expect(reasonOf(error)).toMatch(
          /no_such_table.*(doesn't exist|does not exist).*\. Check the table's name under dataHarmonization in assay\.config\.yaml/,
        );
      } finally {
        await connector.close();
      }
    });

    it("fails wrong credentials without showing the password", async () => {
      const connector = open({ url: helpers.badUrl() });
      try {
        const error = await connector.count("subjects").then(
          () => undefined,
          (e: unknown) => e as Error,
        );
        expect(error?.message).toMatch(/denied|authentication|does not exist/i);
        expect(error?.message).not.toContain("wrong-secret");
        expect(reasonOf(error)).toMatch(
          /\. Check the user and password in the source's connection string/,
        );
        expect(reasonOf(error)).not.toContain("wrong-secret");
      } finally {
        await connector.close();
      }
    });

    it("says to check the host and port when nothing answers there", async () => {
      const url = new URL(helpers.badUrl());
      url.port = "1"; // nothing listens on port 1 of this machine
      const connector = open({ url: url.toString() });
      try {
        const error = await connector.count("subjects").catch((e: unknown) => e);
        expect(reasonOf(error)).toMatch(
          /ECONNREFUSED.*Nothing answers at the source's host and port: check them in its connection string/,
        );
      } finally {
        await connector.close();
      }
    });

    it("stops a statement at the source's timeout", async () => {
      const connector = open({ timeoutMs: 300 });
      try {
        const started = Date.now();
        await expect(connector.count("slow")).rejects.toThrow(/timeout|cancel/i);
        expect(Date.now() - started).toBeLessThan(2_500);
      } finally {
        await connector.close();
      }
    });

    it("fails a count whose connection is dropped mid-statement, then counts again", async () => {
      const connector = open({ timeoutMs: 10_000 });
      try {
        // The expectation is attached before the kill: the count may fail while killConnector
        // is still awaited, and a rejection nobody handles yet fails the whole test run.
        const slowFails = expect(connector.count("slow")).rejects.toThrow(
          /lost|terminat|closed|killed|interrupted/i,
        );
        await new Promise((resolve) => setTimeout(resolve, 400));
        await helpers.killConnector();
        await slowFails;
        expect(await connector.count("subjects")).toBe(5);
      } finally {
        await connector.close();
      }
    });
  });
}

describe.skipIf(!hasMysql)(MYSQL_SUITE, () => {
  let admin: mysql.Connection;
  beforeAll(async () => {
    admin = await mysql.createConnection({ uri: MYSQL_URL, multipleStatements: true });
    await admin.query(`DROP DATABASE IF EXISTS ${MYSQL_DB}; CREATE DATABASE ${MYSQL_DB}`);
    await admin.query(
      `USE ${MYSQL_DB};
       CREATE TABLE subjects (id int primary key);
       INSERT INTO subjects VALUES (1),(2),(3),(4),(5);
       CREATE TABLE leads (lead_id varchar(20) primary key, phone varchar(20));
       CREATE VIEW slow AS SELECT SLEEP(3) AS s;`,
    );
    await admin.query("INSERT INTO leads VALUES ?", [LEADS.map((l) => [l.lead_id, l.phone])]);
  });
  afterAll(async () => {
    await admin?.query(`DROP DATABASE IF EXISTS ${MYSQL_DB}`);
    await admin?.end();
  });

  sqlContract(
    "connector",
    (options = {}) =>
      new MysqlConnector({
        url: options.url ?? `${MYSQL_URL}/${MYSQL_DB}`,
        timeoutMs: options.timeoutMs ?? 5_000,
        maxConnections: 2,
      }),
    {
      killConnector: async () => {
        const [rows] = await admin.query<mysql.RowDataPacket[]>(
          "SELECT id FROM information_schema.processlist WHERE db = ? AND id <> CONNECTION_ID()",
          [MYSQL_DB],
        );
        for (const row of rows) await admin.query(`KILL ${Number(row.id)}`);
      },
      badUrl: () => `mysql://assay_nobody:wrong-secret@127.0.0.1:3306/${MYSQL_DB}`,
    },
  );
});

describe("PostgreSQL (and Redshift)", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    await database.db.pool.query(
      `CREATE TABLE subjects (id int primary key);
       INSERT INTO subjects SELECT generate_series(1, 5);
       CREATE TABLE leads (lead_id text primary key, phone text);
       CREATE VIEW slow AS SELECT 1 AS s FROM pg_sleep(3);`,
    );
    await database.db.pool.query("INSERT INTO leads SELECT * FROM unnest($1::text[], $2::text[])", [
      LEADS.map((l) => l.lead_id),
      LEADS.map((l) => l.phone),
    ]);
  });
  afterAll(async () => {
    await database?.drop();
  });

  sqlContract(
    "connector",
    (options = {}) =>
      new PostgresConnector({
        url: options.url ?? database.url,
        timeoutMs: options.timeoutMs ?? 5_000,
        maxConnections: 2,
      }),
    {
      killConnector: async () => {
        await database.db.pool.query(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'assay-data-harmonization' AND datname = current_database()",
        );
      },
      badUrl: () => {
        const url = new URL(database.url);
        url.username = "assay_nobody";
        url.password = "wrong-secret";
        return url.toString();
      },
    },
  );
});
