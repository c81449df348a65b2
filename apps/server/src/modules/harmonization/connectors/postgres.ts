import pg from "pg";
import {
  quoteName,
  unsupported,
  type Connector,
  type RecordQuery,
  type RecordsRead,
} from "./connector.js";

export interface SqlSourceOptions {
  url: string;
  timeoutMs: number;
  maxConnections: number;
}

/** PostgreSQL and Redshift (which speaks its protocol): COUNT(*) and key reads, quoted. */
export class PostgresConnector implements Connector {
  readonly where: string;
  private readonly pool: pg.Pool;

  constructor(options: SqlSourceOptions) {
    const url = new URL(options.url);
    this.where = `${url.hostname}:${url.port || "5432"}${url.pathname}`;
    this.pool = new pg.Pool({
      connectionString: options.url,
      max: options.maxConnections,
      connectionTimeoutMillis: options.timeoutMs,
      statement_timeout: options.timeoutMs,
      query_timeout: options.timeoutMs + 1_000,
      idleTimeoutMillis: 10_000,
      application_name: "assay-data-harmonization",
    });
    // A connection lost while idle is replaced; the next query reports any lasting failure.
    this.pool.on("error", () => undefined);
  }

  async count(table: string): Promise<number> {
    const result = await this.pool.query<{ n: string }>(
      `SELECT COUNT(*) AS n FROM ${quoteName(table, '"')}`,
    );
    return Number(result.rows[0]?.n ?? 0);
  }

  listDocuments(): Promise<never> {
    return unsupported("PostgreSQL", "list documents");
  }

  countDocument(): Promise<never> {
    return unsupported("PostgreSQL", "count a document");
  }

  async readRecords(table: string, query: RecordQuery, limit: number): Promise<RecordsRead> {
    if (query.keys.length === 0) return { records: [], truncated: false };
    const columns = query.columns.map((c) => quoteName(c, '"')).join(", ");
    const result = await this.pool.query<Record<string, unknown>>(
      `SELECT ${columns} FROM ${quoteName(table, '"')} WHERE ${quoteName(query.key, '"')}::text = ANY($1::text[]) LIMIT ${limit + 1}`,
      [query.keys],
    );
    return { records: result.rows.slice(0, limit), truncated: result.rows.length > limit };
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
