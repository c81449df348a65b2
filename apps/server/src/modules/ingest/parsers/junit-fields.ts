import type { AttachmentInput, ResultInput } from "@assay/core";

/*
 * Values of a JUnit report turned into Assay's fields: times, error texts, attachment references
 * and the conventions tools write into output (testmoapp/junitxml: `[[ATTACHMENT|path]]`,
 * `[[PROPERTY|name=value]]`). Properties are junit-properties.ts.
 */

/** A property as written, in order; names may repeat. */
export type Property = readonly [name: string, value: string];

/**
 * `time` in seconds to milliseconds (microsecond precision). Accepts Surefire's grouped form
 * ("1,234.5") and a decimal comma ("1,5"); anything negative, non-finite or unreadable gives
 * undefined rather than refusing the report over one duration.
 */
export function secondsToMs(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  // Most writers give plain seconds ("0.123"): read them without the three regular expressions.
  if (isPlainDecimal(raw)) return toMs(Number(raw));
  let text = raw.trim().replace(/,(?=\d{3}(?:\D|$))/g, "");
  if (/^\d+,\d+$/.test(text)) text = text.replace(",", ".");
  if (!/^(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(text)) return undefined;
  return toMs(Number(text));
}

function toMs(seconds: number): number | undefined {
  return Number.isFinite(seconds) ? Math.round(seconds * 1e6) / 1e3 : undefined;
}

/** Digits with at most one ".", and at least one digit: a subset of what the slow path accepts. */
function isPlainDecimal(text: string): boolean {
  let digits = 0;
  let dots = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x30 && code <= 0x39) digits++;
    else if (code === 0x2e && dots === 0) dots++;
    else return false;
  }
  return digits > 0;
}

const TIMESTAMP =
  /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?))?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * An ISO-8601 `timestamp` attribute as an instant. Most writers leave the zone out (Ant writes
 * local time, jest-junit and mocha-junit-reporter UTC); such times are read as UTC so the result
 * does not depend on the server's zone. Unreadable or implausible values give undefined.
 */
export function timestampToIso(raw: string | undefined): string | undefined {
  const match = raw === undefined ? null : TIMESTAMP.exec(raw.trim());
  if (!match) return undefined;
  const [, date, time = "00:00", zone = "Z"] = match;
  const offset = zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone.toUpperCase();
  const instant = new Date(`${date}T${time}${offset}`);
  const year = instant.getUTCFullYear();
  return Number.isNaN(instant.getTime()) || year < 1970 || year > 9999
    ? undefined
    : instant.toISOString();
}

/** An element of the testcase that says it did not pass, as written. */
export interface Outcome {
  kind: "failure" | "error";
  message?: string;
  type?: string;
  text: string;
}

// "TypeError: x", "AssertionError [ERR_ASSERTION]: x", "java.lang.IllegalStateException: x".
const ERROR_HEAD =
  /^((?:[A-Za-z_$][\w$.]*)?(?:Error|Exception|Failure|Throwable))(?: \[[\w-]+\])?: ?/;
// The first stack frame of a JavaScript or Java trace ends the message part of an error text.
// Spaces and tabs only: \s* would rescan runs of blank lines at every line break.
const STACK_FRAME = /\n[ \t]*at /;

/** True for the characters `\s` matches: ASCII whitespace, or a Unicode space (rare). */
function isSpace(code: number): boolean {
  if (code < 0x80) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  return /\s/.test(String.fromCharCode(code));
}

/** `a.replace(/\s+/g, "") === b.replace(/\s+/g, "")`, without building either string. */
function sameIgnoringSpace(a: string, b: string): boolean {
  let i = 0;
  let j = 0;
  for (;;) {
    while (i < a.length && isSpace(a.charCodeAt(i))) i++;
    while (j < b.length && isSpace(b.charCodeAt(j))) j++;
    if (i === a.length || j === b.length) return i === a.length && j === b.length;
    if (a.charCodeAt(i++) !== b.charCodeAt(j++)) return false;
  }
}

type ErrorFields = Pick<ResultInput, "error_message" | "error_name" | "error_stack">;

/**
 * error_message, error_name and error_stack from failure/error elements, set on `target` (in that
 * order, each only when there is one). The message attribute wins, but XML folds its line breaks
 * into spaces (and some writers drop them), so when the text repeats the same message its
 * multi-line form is used. Without a message attribute, the text before the first stack frame is
 * the message and an "XError:" prefix gives the name.
 */
export function assignErrorFields(target: ErrorFields, outcomes: readonly Outcome[]): void {
  const texts = distinctTexts(outcomes);
  const first = texts[0] ?? "";
  const head = ERROR_HEAD.exec(first);
  const rest = head ? first.slice(head[0].length) : first;
  const frame = rest.search(STACK_FRAME);
  const body = (frame < 0 ? rest : rest.slice(0, frame)).trim() || undefined;
  let attribute: string | undefined;
  let name: string | undefined;
  for (const outcome of outcomes) {
    attribute ||= outcome.message?.trim() || undefined;
    name ||= outcome.type?.trim() || undefined;
  }
  name ??= head?.[1];
  let message = attribute ?? body;
  if (attribute && body && sameIgnoringSpace(attribute, body)) message = body;
  if (message) target.error_message = message;
  if (name) target.error_name = name;
  if (texts.length) target.error_stack = texts.length === 1 ? first : texts.join("\n\n");
}

/** The non-blank texts, trimmed, each once, in order. */
function distinctTexts(outcomes: readonly Outcome[]): string[] {
  if (outcomes.length === 1) {
    const text = outcomes[0]?.text.trim();
    return text ? [text] : [];
  }
  return [...new Set(outcomes.map((o) => o.text.trim()).filter(Boolean))];
}

const CONTENT_TYPES = new Map([
  ["png", "image/png"],
  ["jpg", "image/jpeg"],
  ["jpeg", "image/jpeg"],
  ["gif", "image/gif"],
  ["webp", "image/webp"],
  ["svg", "image/svg+xml"],
  ["txt", "text/plain"],
  ["log", "text/plain"],
  ["html", "text/html"],
  ["htm", "text/html"],
  ["json", "application/json"],
  ["xml", "application/xml"],
  ["pdf", "application/pdf"],
  ["mp4", "video/mp4"],
  ["webm", "video/webm"],
  ["zip", "application/zip"],
]);

/**
 * An attachment reference: a path of the upload (passed on exactly as written, never opened
 * here: the ingest layer resolves it within the upload only) or an inline `data:` URI. URLs are
 * not files of the upload and give undefined (they stay visible as properties).
 */
export function attachmentFrom(value: string): AttachmentInput | undefined {
  const ref = value.trim();
  if (!ref) return undefined;
  if (/^data:/i.test(ref)) return inlineAttachment(ref);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(ref)) return undefined;
  const name = ref.split(/[\\/]/).pop() || ref;
  const extension = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? "";
  return {
    name,
    path: ref,
    content_type: CONTENT_TYPES.get(extension) ?? "application/octet-stream",
  };
}

function inlineAttachment(uri: string): AttachmentInput | undefined {
  const comma = uri.indexOf(",");
  if (comma < 0) return undefined;
  const params = uri.slice(5, comma).split(";");
  const contentType = params[0]?.trim() || "text/plain";
  const fileName = params.find((p) => /^filename=/i.test(p))?.slice("filename=".length);
  const data = uri.slice(comma + 1);
  let body: string;
  try {
    body = params.some((p) => p.toLowerCase() === "base64")
      ? data.replace(/\s+/g, "")
      : Buffer.from(decodeURIComponent(data), "utf8").toString("base64");
  } catch {
    return undefined;
  }
  return { name: fileName || "attachment", content_type: contentType, body_base64: body };
}

/** Output with its `[[ATTACHMENT|path]]` and `[[PROPERTY|...]]` lines read out. */
export interface Output {
  text?: string;
  attachments: AttachmentInput[];
  properties: Property[];
}

const ATTACHMENT_LINE = /^\s*\[\[ATTACHMENT\|(.+)\]\]\s*$/;
const PROPERTY_LINE = /^\s*\[\[PROPERTY\|([^=\]]+)(?:=(.*))?\]\]\s*$/;
const PROPERTY_END = /^\s*\[\[\/PROPERTY\]\]\s*$/;

/** Reads system-out / system-err text; the text itself is kept as written (trimmed). */
export function readOutput(raw: string): Output {
  const text = raw.trim();
  const output: Output = { attachments: [], properties: [] };
  if (text) output.text = text;
  if (!text.includes("[[")) return output;
  const lines = text.split(/\r?\n/);
  // Once a search for [[/PROPERTY]] fails there is none further on: stop searching, which keeps
  // this linear however many unclosed multi-line properties the output holds.
  let closers = true;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const attachment = ATTACHMENT_LINE.exec(line)?.[1];
    const ref = attachment === undefined ? undefined : attachmentFrom(attachment);
    if (ref) output.attachments.push(ref);
    const property = PROPERTY_LINE.exec(line);
    if (!property?.[1]) continue;
    if (property[2] !== undefined) {
      output.properties.push([property[1].trim(), property[2]]);
      continue;
    }
    // A multi-line property runs to its closing [[/PROPERTY]] line.
    let end = i + 1;
    while (closers && end < lines.length && !PROPERTY_END.test(lines[end] ?? "")) end++;
    if (!closers || end >= lines.length) {
      closers = false;
      continue;
    }
    output.properties.push([property[1].trim(), lines.slice(i + 1, end).join("\n")]);
    i = end;
  }
  return output;
}
