import type { z } from "zod";
import { jsonPath } from "./json.js";
import { ReportError, type UploadFiles } from "./types.js";

/**
 * Pieces shared by the JSON report parsers (Cucumber, CTRF, Playwright, Mocha): schema errors
 * turned into messages a user can act on, ANSI stripping, epoch times and attachment references.
 */

/**
 * Validates a parsed report against a zod schema (unknown fields are allowed by the schemas);
 * the first problem becomes a ReportError naming its JSON path and what was expected there.
 */
export function validateReport<T extends z.ZodType>(
  fileName: string,
  value: unknown,
  schema: T,
  /** Where `value` is in the report (a streamed element's index), for the error's path. */
  at: readonly (string | number)[] = [],
): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (!issue) throw new ReportError(fileName, "the report does not have the expected structure");
  const path = issue.path.map((p) => (typeof p === "number" ? p : String(p)));
  throw new ReportError(fileName, describeIssue(issue, valueAt(value, path)), {
    path: jsonPath([...at, ...path]),
  });
}

function valueAt(root: unknown, path: readonly (string | number)[]): unknown {
  let value = root;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
  }
  return value;
}

const ARTICLES: Record<string, string> = {
  object: "an object",
  array: "an array",
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "true or false",
};

function describeIssue(issue: z.core.$ZodIssue, actual: unknown): string {
  if (issue.code === "invalid_type") {
    const expected = ARTICLES[issue.expected] ?? issue.expected;
    return actual === undefined
      ? `expected ${expected}, but it is missing`
      : `expected ${expected}, got ${describeValue(actual)}`;
  }
  if (issue.code === "invalid_value") {
    const allowed = issue.values.map((v) => JSON.stringify(v)).join(", ");
    return `expected one of ${allowed}, got ${describeValue(actual)}`;
  }
  if (issue.code === "too_small" && typeof actual === "number") {
    return `expected a number of at least ${String(issue.minimum)}, got ${actual}`;
  }
  return issue.message;
}

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return `the string ${JSON.stringify(value.slice(0, 40))}`;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return `${typeof value === "object" ? "an" : "a"} ${typeof value}`;
}

/** The first ~4 KB of a file without a byte-order mark, for the format detectors. */
export function stripBom(head: string): string {
  return head.charCodeAt(0) === 0xfeff ? head.slice(1) : head;
}

const ESC = String.fromCharCode(27);
const BEL = String.fromCharCode(7);
// CSI sequences (colours, cursor moves) and OSC sequences (terminal hyperlinks).
const ANSI = new RegExp(
  `${ESC}\\[[0-?]*[ -/]*[@-~]|${ESC}\\][^${BEL}${ESC}]*(?:${BEL}|${ESC}\\\\)`,
  "g",
);

/** Removes terminal colour codes, which reporters such as Playwright leave in error messages. */
export function stripAnsi(text: string): string;
export function stripAnsi(text: string | undefined): string | undefined;
export function stripAnsi(text: string | undefined): string | undefined {
  return text?.replace(ANSI, "");
}

// Years 0-9999 only: toISOString() writes other years with six digits and a sign.
const MAX_EPOCH_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** An epoch in ms (or an ISO string) as ISO-8601; absent when missing or out of range. */
export function isoTime(time: number | string | undefined): string | undefined {
  if (time === undefined) return undefined;
  const ms = typeof time === "number" ? time : Date.parse(time);
  if (!Number.isFinite(ms) || ms < 0 || ms > MAX_EPOCH_MS) return undefined;
  return new Date(ms).toISOString();
}

/** A duration a report gives, never negative (some runners write -1 for "not measured"). */
export function nonNegative(ms: number | undefined): number {
  return ms === undefined || ms < 0 ? 0 : ms;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The base64 text without line breaks when it is valid base64, else undefined. */
export function cleanBase64(data: string): string | undefined {
  const compact = data.replace(/\s+/g, "");
  return BASE64.test(compact) && compact.length % 4 !== 1 ? compact : undefined;
}

// A hostile path of thousands of segments must not cost quadratic time.
const MAX_PATH_SEGMENTS = 16;

/**
 * The name of the uploaded file an attachment path refers to. Reporters often write absolute
 * paths of the machine that ran the tests (/home/ci/app/test-results/a/shot.png) while the upload
 * holds the same file under a relative name (test-results/a/shot.png, or below the report's own
 * folder inside a zip), so the path's trailing segments are matched against the upload's names.
 * Only names of this upload are ever returned; nothing is looked up on the server's disk. A path
 * with `.`/`..` segments, or one that matches no uploaded file, is returned as given so the
 * ingest layer can report it as missing.
 */
export function resolveUploadPath(reportName: string, path: string, files: UploadFiles): string {
  const segments = path.replace(/\\/g, "/").split("/").filter(Boolean);
  if (segments.length === 0 || segments.some((s) => s === "." || s === "..")) return path;
  const slash = reportName.replace(/\\/g, "/").lastIndexOf("/");
  const reportDir = slash >= 0 ? reportName.slice(0, slash + 1) : "";
  const first = Math.max(0, segments.length - MAX_PATH_SEGMENTS);
  for (let i = first; i < segments.length; i++) {
    const suffix = segments.slice(i).join("/");
    for (const candidate of reportDir ? [reportDir + suffix, suffix] : [suffix]) {
      if (files.get(candidate)) return candidate;
    }
  }
  return path;
}
