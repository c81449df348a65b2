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

const CHECK_TABLE =
  "Check the table's name under dataHarmonization in assay.config.yaml, and that the pipeline has created it.";
const CHECK_COLUMN = "Check the key column's name under dataHarmonization in assay.config.yaml.";
const GRANT = "Grant the source's database user SELECT on it.";
const CHECK_LOGIN =
  "Check the user and password in the source's connection string (the variable its urlEnv names).";
const CHECK_DATABASE = "Check the database's name in the source's connection string.";

/**
 * What to do about a driver's error, by its code: PostgreSQL's (and Redshift's) SQLSTATE,
 * mysql2's ER_ names, Node's network errors. The driver says what went wrong, not where to fix it.
 */
const HINTS: Readonly<Record<string, string>> = {
  "42P01": CHECK_TABLE,
  "3F000": CHECK_TABLE,
  ER_NO_SUCH_TABLE: CHECK_TABLE,
  "42703": CHECK_COLUMN,
  ER_BAD_FIELD_ERROR: CHECK_COLUMN,
  "42501": GRANT,
  ER_TABLEACCESS_DENIED_ERROR: GRANT,
  "28P01": CHECK_LOGIN,
  "28000": CHECK_LOGIN,
  ER_ACCESS_DENIED_ERROR: CHECK_LOGIN,
  "3D000": CHECK_DATABASE,
  ER_BAD_DB_ERROR: CHECK_DATABASE,
  ER_DBACCESS_DENIED_ERROR: CHECK_DATABASE,
  ECONNREFUSED:
    "Nothing answers at the source's host and port: check them in its connection string, and that the database is running.",
  ENOTFOUND: "The source's host name is not known: check it in its connection string.",
  ETIMEDOUT:
    "The source did not answer in time: check that this server can reach its host and port.",
};

/**
 * A message fit for the row: the driver's message, with anything URL-like with a password cut,
 * its code, and what to do when the code says.
 */
export function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown }).code;
  const text = message.replace(/[a-z][a-z0-9+.-]*:\/\/[^\s@/]*:[^\s@/]*@/gi, "<url>@");
  // Node's AggregateError (every address of a host refused) has a code and no message.
  const withCode =
    typeof code !== "string" || text.includes(code) ? text : text ? `${text} (${code})` : code;
  const hint = typeof code === "string" ? HINTS[code] : undefined;
  return (hint ? `${withCode}. ${hint}` : withCode).slice(0, 500) || "unknown error";
}

/** `name` split on its schema dot and quoted with `quote` (identifiers were validated). */
export function quoteName(name: string, quote: "`" | '"'): string {
  return name
    .split(".")
    .map((part) => `${quote}${part.replaceAll(quote, quote + quote)}${quote}`)
    .join(".");
}
