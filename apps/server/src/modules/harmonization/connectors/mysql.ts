import mysql from "mysql2/promise";
import {
  integerKey,
  quoteName,
  unsupported,
  type Connector,
  type KeyBounds,
  type KeyRanges,
  type RecordQuery,
  type RecordsRead,
  type SegmentSum,
} from "./connector.js";
import type { SqlSourceOptions } from "./postgres.js";

/** MySQL and MariaDB through mysql2: COUNT(*) and key reads on quoted identifiers. */
export class MysqlConnector implements Connector, KeyRanges {
  readonly where: string;
  readonly keyRanges: KeyRanges = this;
  private readonly pool: mysql.Pool;
  private readonly timeoutMs: number;

  constructor(options: SqlSourceOptions) {
    const url = new URL(options.url);
    this.where = `${url.hostname}:${url.port || "3306"}${url.pathname}`;
    this.timeoutMs = options.timeoutMs;
    this.pool = mysql.createPool({
      uri: options.url,
      connectionLimit: options.maxConnections,
      connectTimeout: options.timeoutMs,
      // Dates and big numbers as text: records are compared as the file exported them.
      dateStrings: true,
      supportBigNumbers: true,
      bigNumberStrings: true,
      enableKeepAlive: true,
    });
  }

  async count(table: string): Promise<number> {
    const [rows] = await this.pool.query<mysql.RowDataPacket[]>({
      sql: `SELECT COUNT(*) AS n FROM ${quoteName(table, "`")}`,
      timeout: this.timeoutMs,
    });
    return Number(rows[0]?.n ?? 0);
  }

  listDocuments(): Promise<never> {
    return unsupported("MySQL", "list documents");
  }

  countDocument(): Promise<never> {
    return unsupported("MySQL", "count a document");
  }

  async readRecords(table: string, query: RecordQuery, limit: number): Promise<RecordsRead> {
    if (query.keys.length === 0) return { records: [], truncated: false };
    const columns = query.columns.map((c) => quoteName(c, "`")).join(", ");
    const [rows] = await this.pool.query<mysql.RowDataPacket[]>({
      sql: `SELECT ${columns} FROM ${quoteName(table, "`")} WHERE ${quoteName(query.key, "`")} IN (?) LIMIT ${limit + 1}`,
      values: [query.keys],
      timeout: this.timeoutMs,
    });
    const records = rows.map((row) => ({ ...row }) as Record<string, unknown>);
    return { records: records.slice(0, limit), truncated: records.length > limit };
  }

  private async select(sql: string, values: unknown[]): Promise<mysql.RowDataPacket[]> {
    const [rows] = await this.pool.query<mysql.RowDataPacket[]>({
      sql,
      values,
      timeout: this.timeoutMs,
    });
    return rows;
  }

  async keyBounds(table: string, key: string): Promise<KeyBounds> {
    const k = quoteName(key, "`");
    const [row] = await this.select(
      `SELECT MIN(${k}) AS lo, MAX(${k}) AS hi, COUNT(*) AS n FROM ${quoteName(table, "`")}`,
      [],
    );
    const bound = (v: unknown) =>
      v === null || v === undefined ? null : integerKey(v, key, table);
    return { min: bound(row?.lo), max: bound(row?.hi), count: Number(row?.n ?? 0) };
  }

  async segmentSums(
    table: string,
    key: string,
    range: { from: bigint; last: bigint; width: bigint },
  ): Promise<Map<bigint, SegmentSum>> {
    const k = quoteName(key, "`");
    // Bounds travel as text cast to SIGNED: a JavaScript number would lose keys past 2^53.
    const rows = await this.select(
      `SELECT (${k} - CAST(? AS SIGNED)) DIV CAST(? AS SIGNED) AS seg, COUNT(*) AS n,
              SUM(CAST(CONV(SUBSTRING(MD5(CAST(${k} AS CHAR)), 18), 16, 10) AS UNSIGNED)) AS h
         FROM ${quoteName(table, "`")}
        WHERE ${k} >= CAST(? AS SIGNED) AND ${k} <= CAST(? AS SIGNED)
        GROUP BY seg`,
      [range.from, range.width, range.from, range.last].map(String),
    );
    return new Map(
      rows.map((r) => [BigInt(String(r.seg)), { count: Number(r.n), checksum: String(r.h) }]),
    );
  }

  async keysIn(
    table: string,
    key: string,
    range: { from: bigint; last: bigint },
    limit: number,
  ): Promise<bigint[]> {
    const k = quoteName(key, "`");
    const rows = await this.select(
      `SELECT ${k} AS k FROM ${quoteName(table, "`")}
        WHERE ${k} >= CAST(? AS SIGNED) AND ${k} <= CAST(? AS SIGNED) ORDER BY ${k} LIMIT ${Math.trunc(limit)}`,
      [String(range.from), String(range.last)],
    );
    return rows.map((r) => integerKey(r.k, key, table));
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
