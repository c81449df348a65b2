import mysql from "mysql2/promise";
import {
  quoteName,
  unsupported,
  type Connector,
  type RecordQuery,
  type RecordsRead,
} from "./connector.js";
import type { SqlSourceOptions } from "./postgres.js";

/** MySQL and MariaDB through mysql2: COUNT(*) and key reads on quoted identifiers. */
export class MysqlConnector implements Connector {
  readonly where: string;
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

  async close(): Promise<void> {
    await this.pool.end();
  }
}
