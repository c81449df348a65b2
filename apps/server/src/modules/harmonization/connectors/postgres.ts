import pg from "pg";
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

export interface SqlSourceOptions {
  url: string;
  timeoutMs: number;
  maxConnections: number;
}

/** PostgreSQL and Redshift (which speaks its protocol): COUNT(*) and key reads, quoted. */
export class PostgresConnector implements Connector, KeyRanges {
  readonly where: string;
  readonly keyRanges: KeyRanges = this;
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

  private redshift: Promise<boolean> | undefined;

  /** Redshift answers version() with its own name in the text. */
  private isRedshift(): Promise<boolean> {
    this.redshift ??= this.pool
      .query<{ v: string }>("SELECT version() AS v")
      .then((r) => /redshift/i.test(r.rows[0]?.v ?? ""))
      .catch((error: unknown) => {
        this.redshift = undefined; // asked again next time, not failed for good
        throw error;
      });
    return this.redshift;
  }

  async keyBounds(table: string, key: string): Promise<KeyBounds> {
    const k = quoteName(key, '"');
    const { rows } = await this.pool.query<{ lo: unknown; hi: unknown; n: string }>(
      `SELECT MIN(${k}) AS lo, MAX(${k}) AS hi, COUNT(*) AS n FROM ${quoteName(table, '"')}`,
    );
    const row = rows[0];
    const bound = (v: unknown) =>
      v === null || v === undefined ? null : integerKey(v, key, table);
    return { min: bound(row?.lo), max: bound(row?.hi), count: Number(row?.n ?? 0) };
  }

  async segmentSums(
    table: string,
    key: string,
    range: { from: bigint; last: bigint; width: bigint },
  ): Promise<Map<bigint, SegmentSum>> {
    const k = quoteName(key, '"');
    // The same hash as MySQL's CONV(SUBSTRING(MD5(k), 18), 16, 10): md5's last 15 hex digits.
    // Redshift has no bit type but has STRTOL; its SUM of a BIGINT would overflow NUMERIC(19).
    const hash = (await this.isRedshift())
      ? `STRTOL(SUBSTRING(MD5(${k}::varchar), 18), 16)::numeric(38, 0)`
      : `('x' || substr(md5(${k}::text), 18))::bit(60)::bigint`;
    const { rows } = await this.pool.query<{ seg: string; n: string; h: string }>(
      `SELECT (${k}::bigint - $1::bigint) / $2::bigint AS seg, COUNT(*) AS n, SUM(${hash}) AS h
         FROM ${quoteName(table, '"')}
        WHERE ${k} >= $1::bigint AND ${k} <= $3::bigint
        GROUP BY 1`,
      [range.from, range.width, range.last].map(String),
    );
    return new Map(rows.map((r) => [BigInt(r.seg), { count: Number(r.n), checksum: String(r.h) }]));
  }

  async keysIn(
    table: string,
    key: string,
    range: { from: bigint; last: bigint },
    limit: number,
  ): Promise<bigint[]> {
    const k = quoteName(key, '"');
    const { rows } = await this.pool.query<{ k: unknown }>(
      `SELECT ${k} AS k FROM ${quoteName(table, '"')}
        WHERE ${k} >= $1::bigint AND ${k} <= $2::bigint ORDER BY ${k} LIMIT ${Math.trunc(limit)}`,
      [String(range.from), String(range.last)],
    );
    return rows.map((r) => integerKey(r.k, key, table));
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
