import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import { from as copyFrom } from "pg-copy-streams";
import type pg from "pg";

/**
 * Bulk writes through PostgreSQL COPY (text format), an order of magnitude faster than INSERTs
 * for the thousands of rows a report brings. Values are encoded here: null, text, numbers,
 * booleans, dates, text arrays and JSON.
 */
export type CopyValue = string | number | boolean | Date | null | undefined | string[] | JsonValue;

/**
 * A value for a json/jsonb column (arrays included, which would otherwise be text[]). Its COPY
 * text is made once, however many rows hold it (a JUnit suite's properties: result-rows.ts); so
 * the value must not change once written.
 */
export class JsonValue {
  private text: string | undefined;
  constructor(readonly value: unknown) {}

  get copyText(): string {
    return (this.text ??= encodeJson(this.value));
  }
}

export const json = (value: unknown): JsonValue => new JsonValue(value);

/**
 * `text` as a text column stores it: a NUL cannot be stored, it becomes U+FFFD (as COPY's
 * encoding below does). For values keyed or compared before they are stored.
 */
export function storedText(text: string | null | undefined): string | null {
  if (text === undefined || text === null) return null;
  return text.includes("\u0000") ? text.replaceAll("\u0000", "\uFFFD") : text;
}

// PostgreSQL's jsonb refuses the \u0000 escape that JSON.stringify writes for NUL.
const noNulInStrings = (_key: string, value: unknown) =>
  typeof value === "string" ? storedText(value) : value;

// COPY text format: backslash, tab, newline and carriage return are escaped; \N is NULL. A NUL
// cannot be stored in text columns at all; reports do contain them (binary output), so it
// becomes U+FFFD. Most values hold none of these: one test() then returns the string itself.
// eslint-disable-next-line no-control-regex -- NUL is one of the characters looked for
const COPY_SPECIAL = /[\\\t\n\r\u0000]/;
// eslint-disable-next-line no-control-regex -- as above
const COPY_SPECIALS = /[\\\t\n\r\u0000]/g;
const COPY_ESCAPES: Record<string, string> = {
  "\\": "\\\\",
  "\t": "\\t",
  "\n": "\\n",
  "\r": "\\r",
  "\u0000": "\uFFFD",
};
const escapeChar = (c: string) => COPY_ESCAPES[c]!;

/**
 * COPY_ESCAPES by byte, as UTF-8 bytes, for text copied as bytes (RowBuffer.copyEscapedText):
 * every character escaped is ASCII, and no byte of another character's UTF-8 is below 0x80.
 */
export const COPY_BYTE_ESCAPES: (readonly number[] | undefined)[] = [];
for (const [char, escaped] of Object.entries(COPY_ESCAPES)) {
  COPY_BYTE_ESCAPES[char.charCodeAt(0)] = [...Buffer.from(escaped)];
}
function escapeText(text: string): string {
  return COPY_SPECIAL.test(text) ? text.replace(COPY_SPECIALS, escapeChar) : text;
}

// PostgreSQL array literal: every element quoted, with backslash and quote escaped.
const ARRAY_SPECIAL = /[\\"]/;
const ARRAY_SPECIALS = /[\\"]/g;
function arrayElement(item: string): string {
  return ARRAY_SPECIAL.test(item) ? `"${item.replace(ARRAY_SPECIALS, "\\$&")}"` : `"${item}"`;
}

/** A text[] literal of `values` (before COPY's escaping): every element quoted. */
export function arrayLiteral(values: readonly string[]): string {
  return values.length === 0 ? "{}" : `{${values.map((v) => arrayElement(String(v))).join(",")}}`;
}

export function encodeCopyValue(value: CopyValue): string {
  if (value === null || value === undefined) return "\\N";
  if (typeof value === "string") return escapeText(value);
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "\\N";
  if (typeof value === "boolean") return value ? "t" : "f";
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return escapeText(arrayLiteral(value));
  return value.copyText;
}

function encodeJson(value: unknown): string {
  if (value === undefined || value === null) return "\\N";
  if (Array.isArray(value) && value.length === 0) return "[]";
  return escapeText(jsonText(value));
}

/** `value` as JSON text that jsonb accepts (no \u0000 escape: NUL becomes U+FFFD). */
export function jsonText(value: unknown): string {
  // A replacer slows every stringify down; only the rare text with a NUL needs one.
  const text = JSON.stringify(value);
  return text.includes("\\u0000") ? JSON.stringify(value, noNulInStrings) : text;
}

/** A row's values as COPY text, without its newline. */
function encodeCopyFields(values: readonly CopyValue[]): string {
  // One join makes one flat string; appending value by value would allocate a rope node each.
  return values.map(encodeCopyValue).join("\t");
}

export function encodeCopyRow(values: readonly CopyValue[]): string {
  return `${encodeCopyFields(values)}\n`;
}

/**
 * Rows are sent in chunks of about this many bytes: one socket write each, not one a row. Each
 * row is written into the chunk as UTF-8 as soon as it is encoded, so the only string per row is
 * its text; joining rows into chunk strings first cost the request's thread about as much again.
 */
const CHUNK_BYTES = 64 * 1024;
const NEWLINE = 0x0a;

function* copyChunks(rows: Iterable<readonly CopyValue[]>): Generator<Buffer> {
  let chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  let filled = 0;
  for (const row of rows) {
    const text = encodeCopyFields(row);
    // UTF-8 takes at most 3 bytes per UTF-16 code unit; then the newline.
    const worst = text.length * 3 + 1;
    if (filled + worst > chunk.length) {
      if (filled > 0) yield chunk.subarray(0, filled);
      // A new buffer each time: the connection may still hold the last one.
      chunk = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, worst));
      filled = 0;
    }
    filled += chunk.write(text, filled, "utf8");
    chunk[filled++] = NEWLINE;
  }
  if (filled > 0) yield chunk.subarray(0, filled);
}

/**
 * Streams `rows` into `table` with one COPY (text format) on the given client, inside its
 * transaction. Rows are taken from `rows` and encoded as the connection takes them: a generator
 * lets each row die young even when the COPY takes a while. An empty array costs no statement.
 */
export async function copyRows(
  client: pg.PoolClient,
  table: string,
  columns: readonly string[],
  rows: Iterable<readonly CopyValue[]>,
): Promise<void> {
  if (Array.isArray(rows) && rows.length === 0) return;
  await copyData(client, table, columns, copyChunks(rows));
}

/** Streams COPY text data already encoded (rows ending in newlines) into `table`, as copyRows. */
export async function copyData(
  client: pg.PoolClient,
  table: string,
  columns: readonly string[],
  chunks: Iterable<Buffer>,
): Promise<void> {
  const stream = client.query(copyFrom(`COPY ${table} (${columns.join(", ")}) FROM STDIN`));
  await pipeline(Readable.from(chunks), stream);
}
