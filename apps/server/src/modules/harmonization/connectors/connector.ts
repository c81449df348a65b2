/**
 * One interface for every data store data harmonization reads: a relational database (MySQL,
 * PostgreSQL, Redshift), an object store holding NDJSON files (S3, a local folder) or a document
 * database (DocumentDB). Names (tables, prefixes, collections) come from the configuration
 * only; a connector quotes them and never runs anything but counts and key reads.
 */
export interface DocumentInfo {
  key: string;
  size: number;
  lastModified: Date | null;
}

/** Reads the records whose `key` column is one of `keys` (SQL), or every record (files). */
export interface RecordQuery {
  key: string;
  keys: readonly string[];
  columns: readonly string[];
}

export interface RecordsRead {
  records: Record<string, unknown>[];
  /** More records exist than `limit` allowed. */
  truncated: boolean;
}

export interface Connector {
  /** Where it reads, for people: a bucket name, a database host (never a credential). */
  readonly where: string;
  /** Rows of a table, non-empty NDJSON lines under a prefix, or documents of a collection. */
  count(name: string): Promise<number>;
  /** Objects under a prefix (object stores only). */
  listDocuments(prefix: string): Promise<DocumentInfo[]>;
  /** Non-empty NDJSON lines of one object (object stores only). */
  countDocument(key: string): Promise<number>;
  /** Records of a document (object stores) or a table's rows by key (databases). */
  readRecords(name: string, query: RecordQuery, limit: number): Promise<RecordsRead>;
  /** Key-range reads for Find missing rows: SQL sources only. */
  readonly keyRanges?: KeyRanges;
  close(): Promise<void>;
}

/** A table's integer key column at a glance: its smallest and largest key and its row count. */
export interface KeyBounds {
  min: bigint | null;
  max: bigint | null;
  count: number;
}

/** Rows of one key segment and the sum of their keys' hashes (decimal text: it passes 2^53). */
export interface SegmentSum {
  count: number;
  checksum: string;
}

/**
 * What the checksum bisection of Find missing rows asks of a database (the reladiff method): a
 * key's hash is the low 60 bits of md5 of its decimal text, computed the same way on every engine
 * so that equal key sets give equal sums whatever the database.
 */
export interface KeyRanges {
  keyBounds(table: string, key: string): Promise<KeyBounds>;
  /**
   * Keys in [from, last] grouped by segment number floor((key - from) / width). The bounds are
   * inclusive so that both fit a signed 64-bit integer, and the caller keeps last - from below
   * 2^63, so the engine's BIGINT arithmetic cannot overflow.
   */
  segmentSums(
    table: string,
    key: string,
    range: { from: bigint; last: bigint; width: bigint },
  ): Promise<Map<bigint, SegmentSum>>;
  /** Keys in [from, last], ascending, at most `limit`. */
  keysIn(
    table: string,
    key: string,
    range: { from: bigint; last: bigint },
    limit: number,
  ): Promise<bigint[]>;
}

/** The keys Find missing rows can order: a signed 64-bit integer's range (BIGINT). */
export const KEY_MIN = -(2n ** 63n);
export const KEY_MAX = 2n ** 63n - 1n;

/** An integer read back from a database (number, bigint or decimal text); else a clear error. */
export function integerKey(value: unknown, key: string, table: string): bigint {
  const text = typeof value === "bigint" || typeof value === "number" ? String(value) : value;
  if (typeof text !== "string" || !/^-?\d+$/.test(text))
    throw new ConnectorError(
      `The key column ${key} of ${table} does not hold integers: Find missing rows bisects integer key ranges (set key: to an integer column).`,
    );
  const number = BigInt(text);
  if (number < KEY_MIN || number > KEY_MAX)
    throw new ConnectorError(
      `The key column ${key} of ${table} holds ${text}, outside the signed 64-bit range Find missing rows can order (${KEY_MIN} to ${KEY_MAX}): set key: to a column whose keys fit a BIGINT.`,
    );
  return number;
}

/** A failure that is shown as the row's reason: its message never carries a secret. */
export class ConnectorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConnectorError";
  }
}

export function unsupported(kind: string, what: string): never {
  throw new ConnectorError(`A ${kind} source cannot ${what}.`);
}

/** A message fit for the row: the driver's message, with anything URL-like with a password cut. */
export function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown }).code;
  const text = message.replace(/[a-z][a-z0-9+.-]*:\/\/[^\s@/]*:[^\s@/]*@/gi, "<url>@");
  const withCode = typeof code === "string" && !text.includes(code) ? `${text} (${code})` : text;
  return withCode.slice(0, 500) || "unknown error";
}

/** `name` split on its schema dot and quoted with `quote` (identifiers were validated). */
export function quoteName(name: string, quote: "`" | '"'): string {
  return name
    .split(".")
    .map((part) => `${quote}${part.replaceAll(quote, quote + quote)}${quote}`)
    .join(".");
}
