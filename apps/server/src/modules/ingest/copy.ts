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

/** A value for a json/jsonb column (arrays included, which would otherwise be text[]). */
export class JsonValue {
  constructor(readonly value: unknown) {}
}

export const json = (value: unknown): JsonValue => new JsonValue(value);

// PostgreSQL's jsonb refuses the \u0000 escape that JSON.stringify writes for NUL.
const noNulInStrings = (_key: string, value: unknown) =>
  typeof value === "string" && value.includes("\u0000")
    ? value.replaceAll("\u0000", "\uFFFD")
    : value;

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
function escapeText(text: string): string {
  return COPY_SPECIAL.test(text) ? text.replace(COPY_SPECIALS, escapeChar) : text;
}

// PostgreSQL array literal: every element quoted, with backslash and quote escaped.
const ARRAY_SPECIAL = /[\\"]/;
const ARRAY_SPECIALS = /[\\"]/g;
function arrayElement(item: string): string {
  return ARRAY_SPECIAL.test(item) ? `"${item.replace(ARRAY_SPECIALS, "\\$&")}"` : `"${item}"`;
}

export function encodeCopyValue(value: CopyValue): string {
  if (value === null || value === undefined) return "\\N";
  if (typeof value === "string") return escapeText(value);
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "\\N";
  if (typeof value === "boolean") return value ? "t" : "f";
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) {
    if (value.length === 0) return "{}";
    return escapeText(`{${value.map((v) => arrayElement(String(v))).join(",")}}`);
  }
  if (value.value === undefined || value.value === null) return "\\N";
  if (Array.isArray(value.value) && value.value.length === 0) return "[]";
  // A replacer slows every stringify down; only the rare text with a NUL needs one.
  const text = JSON.stringify(value.value);
  return escapeText(text.includes("\\u0000") ? JSON.stringify(value.value, noNulInStrings) : text);
}

export function encodeCopyRow(values: readonly CopyValue[]): string {
  // One join makes one flat string; appending value by value would allocate a rope node each.
  return `${values.map(encodeCopyValue).join("\t")}\n`;
}

/**
 * Rows are sent in chunks of about this many characters: one socket write each, not one a row.
 * Below V8's large-object size (128 KB), so a chunk is a young object that dies in the next
 * scavenge; 256 KB chunks went to large-object space and were kept until a full GC, which grew
 * the old generation by the size of everything an upload wrote.
 */
const CHUNK_CHARS = 60 * 1024;

// Lines are joined once per chunk: appending them one by one would build a rope that is
// flattened again when the chunk is written.
function* copyChunks(lines: Iterable<string>): Generator<string> {
  let chunk: string[] = [];
  let chars = 0;
  for (const line of lines) {
    chunk.push(line);
    chars += line.length;
    if (chars >= CHUNK_CHARS) {
      yield chunk.join("");
      chunk = [];
      chars = 0;
    }
  }
  if (chunk.length > 0) yield chunk.join("");
}

/**
 * Streams COPY text lines (each ending in a newline) into `table` with one COPY on the given
 * client, inside its transaction. Lines are produced as the connection takes them.
 */
export async function copyLines(
  client: pg.PoolClient,
  table: string,
  columns: readonly string[],
  lines: Iterable<string>,
): Promise<void> {
  const stream = client.query(copyFrom(`COPY ${table} (${columns.join(", ")}) FROM STDIN`));
  await pipeline(Readable.from(copyChunks(lines)), stream);
}

function* encodedRows(rows: readonly (readonly CopyValue[])[]): Generator<string> {
  for (const row of rows) yield encodeCopyRow(row);
}

/** Streams `rows` into `table` with one COPY (see copyLines). */
export async function copyRows(
  client: pg.PoolClient,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly CopyValue[])[],
): Promise<void> {
  if (rows.length === 0) return;
  await copyLines(client, table, columns, encodedRows(rows));
}
