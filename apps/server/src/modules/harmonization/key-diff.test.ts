import mysql from "mysql2/promise";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { MysqlConnector } from "./connectors/mysql.js";
import { PostgresConnector } from "./connectors/postgres.js";
import { diffKeys, KEY_DIFF_LIMITS, type KeyDiffSide } from "./key-diff.js";

/**
 * Find missing rows' checksum bisection against real servers: MariaDB on 127.0.0.1:3306 (root,
 * no password; skipped with a message when it does not answer) and the test PostgreSQL. The
 * source has 60,000 keys with gaps; the destination lacks 7 of them and has 3 the source lacks.
 */

const MYSQL_URL = process.env.TEST_MYSQL_URL ?? "mysql://root@127.0.0.1:3306";
const MYSQL_DB = `assay_dh_diff_${process.pid}`;
const hasMysql = await mysql
  .createConnection({ uri: MYSQL_URL, connectTimeout: 2_000 })
  .then(async (c) => (await c.end(), true))
  .catch(() => false);

const SOURCE = Array.from({ length: 60_000 }, (_, i) => i + 1).filter((k) => k % 997 !== 0);
const MISSING = [17, 30_000, 30_001, 30_002, 30_003, 30_004, 59_999];
const EXTRA = [4_985, 39_880, 70_000];
const DESTINATION = [...SOURCE.filter((k) => !MISSING.includes(k)), ...EXTRA];
const BIG = [2n ** 53n, 2n ** 53n + 1n, 2n ** 62n];
// The whole signed 64-bit range: keys at both ends, spanning more than 2^63.
const EDGE = [-(2n ** 63n), -1n, 0n, 5n, 2n ** 63n - 2n, 2n ** 63n - 1n];
const EDGE_DEST = [-1n, 0n, 5n, 7n, 2n ** 63n - 2n];
const EDGE_MISSING = ["-9223372036854775808", "9223372036854775807"];
// Small leaves so that 60,000 keys are bisected several levels deep.
const LIMITS = { ...KEY_DIFF_LIMITS, leafRows: 200, factor: 8 };

let database: TestDatabase;
let postgres: PostgresConnector;
const pg = (table: string): KeyDiffSide => ({ ranges: postgres, table });

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.pool.query(
    `CREATE TABLE source_keys (id bigint primary key);
     CREATE TABLE dest_keys (id bigint primary key);
     CREATE TABLE big_source (id bigint primary key);
     CREATE TABLE big_dest (id bigint primary key);
     CREATE TABLE edge_source (id bigint primary key);
     CREATE TABLE edge_dest (id bigint primary key);
     CREATE TABLE top_dest (id bigint primary key);
     CREATE TABLE text_keys (id text primary key);
     INSERT INTO text_keys VALUES ('a'), ('b');
     CREATE TABLE huge_keys (id numeric(30, 0) primary key);
     INSERT INTO huge_keys VALUES (1), (100000000000000000000);`,
  );
  for (const [table, keys] of [
    ["source_keys", SOURCE],
    ["dest_keys", DESTINATION],
    ["big_source", BIG],
    ["big_dest", [BIG[0], BIG[2]]],
    ["edge_source", EDGE],
    ["edge_dest", EDGE_DEST],
    ["top_dest", [2n ** 63n - 2n]],
  ] as const)
    await database.db.pool.query(`INSERT INTO ${table} SELECT unnest($1::bigint[])`, [
      keys.map(String),
    ]);
  postgres = new PostgresConnector({ url: database.url, timeoutMs: 10_000, maxConnections: 2 });
});
afterAll(async () => {
  await postgres?.close();
  await database?.drop();
});

describe("PostgreSQL to PostgreSQL", () => {
  it("lists the missing and extra keys, reading only the differing ranges", async () => {
    const diff = await diffKeys(pg("source_keys"), pg("dest_keys"), "id", LIMITS);
    expect(diff.missing).toEqual(MISSING.map(String));
    expect(diff.extra).toEqual(EXTRA.map(String));
    expect(diff.truncated).toBe(false);
    expect(diff.timedOut).toBe(false);
    // 120,000 keys on the two sides; the differences sit in a few small leaves.
    expect(diff.keysRead).toBeLessThan(3_000);
    expect(diff.segmentQueries).toBeGreaterThan(1);
  });

  it("finds nothing on equal tables after one checksum query per side", async () => {
    const diff = await diffKeys(pg("source_keys"), pg("source_keys"), "id", LIMITS);
    expect(diff).toMatchObject({ missing: [], extra: [], segmentQueries: 1, keysRead: 0 });
  });

  it("lists the lowest differences up to the key bound and says more exist", async () => {
    const diff = await diffKeys(pg("source_keys"), pg("dest_keys"), "id", {
      ...LIMITS,
      maxKeys: 4,
    });
    expect([...diff.missing, ...diff.extra]).toHaveLength(4);
    expect(diff.missing.slice(0, 2)).toEqual(["17", "30000"]);
    expect(diff.truncated).toBe(true);
  });

  it("stops at the time bound, saying so", async () => {
    const diff = await diffKeys(pg("source_keys"), pg("dest_keys"), "id", {
      ...LIMITS,
      timeBudgetMs: -1,
    });
    expect(diff).toMatchObject({ timedOut: true, truncated: true, missing: [], extra: [] });
  });

  it("keeps keys past 2^53 exact", async () => {
    const diff = await diffKeys(pg("big_source"), pg("big_dest"), "id", {
      ...LIMITS,
      leafRows: 1,
      factor: 2,
    });
    expect(diff.missing).toEqual(["9007199254740993"]);
    expect(diff.extra).toEqual([]);
  });

  it("searches the whole signed 64-bit range: keys at both ends, spanning more than 2^63", async () => {
    for (const limits of [LIMITS, { ...LIMITS, leafRows: 1, factor: 2 }]) {
      const diff = await diffKeys(pg("edge_source"), pg("edge_dest"), "id", limits);
      expect(diff.missing).toEqual(EDGE_MISSING);
      expect(diff.extra).toEqual(["7"]);
    }
    // The largest key alone at the top: its segment ends one past BIGINT's largest value.
    const top = await diffKeys(pg("edge_source"), pg("top_dest"), "id", LIMITS);
    expect(top.missing).toEqual(EDGE.filter((k) => k !== 2n ** 63n - 2n).map(String));
  });

  it("says so for keys outside the signed 64-bit range it can order", async () => {
    await expect(diffKeys(pg("huge_keys"), pg("source_keys"), "id", LIMITS)).rejects.toThrow(
      /holds 100000000000000000000, outside the signed 64-bit range .*set key:/,
    );
  });

  it("refuses a key column that does not hold integers, saying what to set", async () => {
    await expect(diffKeys(pg("text_keys"), pg("text_keys"), "id", LIMITS)).rejects.toThrow(
      /key column id of text_keys does not hold integers.*set key:/,
    );
  });
});

describe.skipIf(!hasMysql)(
  hasMysql
    ? "MySQL (MariaDB) to PostgreSQL"
    : `MySQL (MariaDB) to PostgreSQL: skipped, nothing answers at ${MYSQL_URL} (set TEST_MYSQL_URL)`,
  () => {
    let admin: mysql.Connection;
    let connector: MysqlConnector;
    const my = (table: string): KeyDiffSide => ({ ranges: connector, table });
    beforeAll(async () => {
      admin = await mysql.createConnection({ uri: MYSQL_URL, multipleStatements: true });
      await admin.query(`DROP DATABASE IF EXISTS ${MYSQL_DB}; CREATE DATABASE ${MYSQL_DB}`);
      await admin.query(
        `USE ${MYSQL_DB};
         CREATE TABLE source_keys (id bigint primary key);
         CREATE TABLE big_source (id bigint primary key);
         CREATE TABLE edge_source (id bigint primary key);
         CREATE TABLE unsigned_keys (id bigint unsigned primary key);
         INSERT INTO unsigned_keys VALUES (1), (18446744073709551615);`,
      );
      await admin.query("INSERT INTO edge_source VALUES ?", [EDGE.map((k) => [String(k)])]);
      for (let i = 0; i < SOURCE.length; i += 10_000)
        await admin.query("INSERT INTO source_keys VALUES ?", [
          SOURCE.slice(i, i + 10_000).map((k) => [k]),
        ]);
      await admin.query("INSERT INTO big_source VALUES ?", [BIG.map((k) => [String(k)])]);
      connector = new MysqlConnector({
        url: `${MYSQL_URL}/${MYSQL_DB}`,
        timeoutMs: 10_000,
        maxConnections: 2,
      });
    });
    afterAll(async () => {
      await connector?.close();
      await admin?.query(`DROP DATABASE IF EXISTS ${MYSQL_DB}`);
      await admin?.end();
    });

    it("hashes keys as PostgreSQL does: equal key sets compare equal in one query", async () => {
      const diff = await diffKeys(my("source_keys"), pg("source_keys"), "id", LIMITS);
      expect(diff).toMatchObject({ missing: [], extra: [], segmentQueries: 1, keysRead: 0 });
    });

    it("lists the keys PostgreSQL lacks and has extra, bisecting both", async () => {
      const diff = await diffKeys(my("source_keys"), pg("dest_keys"), "id", LIMITS);
      expect(diff.missing).toEqual(MISSING.map(String));
      expect(diff.extra).toEqual(EXTRA.map(String));
      expect(diff.keysRead).toBeLessThan(3_000);
    });

    it("keeps keys past 2^53 exact in MySQL too", async () => {
      const diff = await diffKeys(my("big_source"), pg("big_dest"), "id", {
        ...LIMITS,
        leafRows: 1,
        factor: 2,
      });
      expect(diff.missing).toEqual(["9007199254740993"]);
    });

    it("searches the whole signed 64-bit range in MySQL too", async () => {
      const diff = await diffKeys(my("edge_source"), pg("edge_dest"), "id", LIMITS);
      expect(diff.missing).toEqual(EDGE_MISSING);
      expect(diff.extra).toEqual(["7"]);
    });

    it("says so for an unsigned key past the signed 64-bit range", async () => {
      await expect(diffKeys(my("unsigned_keys"), pg("source_keys"), "id", LIMITS)).rejects.toThrow(
        /holds 18446744073709551615, outside the signed 64-bit range/,
      );
    });

    it("fails a missing table with the server's reason", async () => {
      await expect(diffKeys(my("no_such_table"), pg("dest_keys"), "id", LIMITS)).rejects.toThrow(
        /no_such_table.*doesn't exist/,
      );
    });
  },
);
