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

// COPY text format: backslash, tab, newline and carriage return are escaped; \N is NULL.
function escapeText(text: string): string {
  return text.replace(/[\\\t\n\r]/g, (c) =>
    c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : "\\r",
  );
}

// PostgreSQL array literal: every element quoted, with backslash and quote escaped.
function arrayLiteral(items: readonly string[]): string {
  return `{${items.map((item) => `"${item.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`).join(",")}}`;
}

/** A NUL character cannot be stored in text columns; reports do contain them (binary output). */
function withoutNul(text: string): string {
  return text.includes("\u0000") ? text.replaceAll("\u0000", "\uFFFD") : text;
}

export function encodeCopyValue(value: CopyValue): string {
  if (value === null || value === undefined) return "\\N";
  if (typeof value === "string") return escapeText(withoutNul(value));
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "\\N";
  if (typeof value === "boolean") return value ? "t" : "f";
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value))
    return escapeText(arrayLiteral(value.map((v) => withoutNul(String(v)))));
  if (value.value === undefined || value.value === null) return "\\N";
  return escapeText(JSON.stringify(value.value, noNulInStrings));
}

export function encodeCopyRow(values: readonly CopyValue[]): string {
  return `${values.map(encodeCopyValue).join("\t")}\n`;
}

/** Streams `rows` into `table` with one COPY on the given client (inside its transaction). */
export async function copyRows(
  client: pg.PoolClient,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly CopyValue[])[],
): Promise<void> {
  if (rows.length === 0) return;
  const stream = client.query(copyFrom(`COPY ${table} (${columns.join(", ")}) FROM STDIN`));
  await pipeline(Readable.from(rows.map(encodeCopyRow)), stream);
}
