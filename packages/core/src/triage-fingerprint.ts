/**
 * The fingerprint of a failure: what stays the same between two occurrences of one cause.
 * A fingerprint is the error's type, its message with every value that varies between runs
 * replaced by a placeholder, and the first frame of the project's own code (Sentry's in-app
 * frame: no line numbers, no dependency or runtime frames). The rules are documented in
 * docs/triage.md; each has a test built from a real reporter's error text.
 */

/** A normalised message is cut here: the rest of a long message rarely tells causes apart. */
export const FINGERPRINT_MESSAGE_LIMIT = 400;

/**
 * A message or stack is fingerprinted from its first this many characters (code points): the
 * top own frame is near a stack's start, and a 1 MB stack is not read twice.
 */
export const FAILURE_TEXT_CHARS = 8000;

export interface FailureText {
  name?: string | null;
  message?: string | null;
  stack?: string | null;
}

export interface FailureFingerprint {
  /** The exception type ("AssertionError", "org.opentest4j.AssertionFailedError"), or "Error". */
  errorType: string;
  /** The message with its values replaced by placeholders (or kept: see isGenericAssertion). */
  message: string;
  /** The first frame of the project's own code, without line and column; null without a stack. */
  frame: string | null;
  /** type, message and frame on three lines: equal keys are one cause. */
  key: string;
}

// The ESC character built from its code: a control character in a regex literal is a lint error.
const ESC = String.fromCharCode(27);
const ANSI = new RegExp(`${ESC}\\[[0-9;]*[A-Za-z]`, "g");

/** Colour codes (Playwright, Jest, Vitest print them into their messages). */
export function stripAnsi(text: string): string {
  return text.includes(ESC) ? text.replace(ANSI, "") : text;
}

// Playwright's and Jest's code excerpt ("> 43 |   expect(x).toBe(1);" and the caret line).
const CODE_FRAME_LINE = /^\s*>?\s*\d*\s*\|.*$/;

/** Where the stack starts inside a message that carries one (Cucumber, JUnit bodies). */
const STACK_START = /\n\s*(at |File "|Traceback)/;

/**
 * Values that differ between two occurrences of one cause, most specific first (a UUID before
 * its hex digits, a timestamp before its numbers, a path before its line numbers).
 */
const VOLATILE: readonly [RegExp, string][] = [
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, "<uuid>"],
  [/\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2}| ?UTC)?\b/g, "<time>"],
  [/\b\d{4}-\d{2}-\d{2}\b/g, "<time>"],
  [/\b\d{1,2}:\d{2}:\d{2}(\.\d+)?\b/g, "<time>"],
  [/\b0x[0-9a-f]+\b/gi, "<hex>"],
  [/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b/gi, "<hex>"],
  [/\b(?:\d{1,3}\.){3}\d{1,3}(:\d{1,5})?\b/g, "<ip>"],
  [/\[?(?<![\w:])(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:?)*(?![\w:])\]?/gi, "<ip>"],
  [/\b(?:[0-9a-f]{1,4}:){7}[0-9a-f]{1,4}\b/gi, "<ip>"],
];
/** A host's port ("localhost:39211"): after line:column, which looks the same after a file. */
const HOST_PORT = /\b(localhost|[a-z][\w-]*(\.[\w-]+)+):\d{2,5}\b/gi;

/** Temporary folders: a CI workspace or the system's temp, whatever follows in them. */
const TEMP_PATH =
  /(?:file:\/\/)?(?:\/tmp\/|\/var\/folders\/|\/private\/var\/|[A-Za-z]:\\(?:[^\s\\]+\\)*?(?:_work|Temp|tmp)\\)[^\s:)"'`]*/g;
/**
 * Absolute paths: files (a name with an extension, two or more folders deep) and anything under
 * the usual roots of checkouts and homes. The last two segments are kept (file and its folder).
 * A URL's path ("/api/orders/12") is neither and stays.
 */
const ABSOLUTE_PATH =
  /(?:file:\/\/)?(?<![\w:/])(?:(?:\/[\w.@+-]+){2,}\/[\w@+-]+\.[A-Za-z]\w{0,5}\b|\/(?:home|Users|var|opt|usr|srv|builds|workspace|runner|github|root|mnt)(?:\/[\w.@+-]+)+)|[A-Za-z]:\\(?:[\w.@+ -]+\\){2,}[\w.@+-]+/g;
const LINE_COLUMN =
  /(\.(?:[cm]?[jt]sx?|java|kt|py|rb|go|cs|php|scala|swift|feature|vue|svelte)):\d+(:\d+)?/gi;
const DURATION =
  /\b\d+(\.\d+)?\s?(ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hours?)\b/gi;
const NUMBER = /(?<![A-Za-z_<])-?\d+(?:[.,]\d+)*(?![A-Za-z_>])/g;
const QUOTED = /"[^"\n]*"|'[^'\n]*'|`[^`\n]*`|<[^<>\n]*>/g;

const DIGIT = /\d/;

function lastSegments(path: string): string {
  const parts = path.split(/[\\/]/).filter((part) => part !== "" && part !== "file:");
  return `<path>/${parts.slice(-2).join("/")}`;
}

/** Words of assertion libraries that say nothing about the cause once the values are gone. */
const GENERIC_WORDS = new Set(
  (
    "assertionerror assert assertion expected expect expecting received receive actual to be " +
    "equal equals equality strictly strict deep deeply deepequal toequal tobe tostrictequal " +
    "tohavelength tocontain but was got is are not object values value should have found " +
    "true false null undefined nan infinity instead of and a an the"
  ).split(" "),
);

/**
 * Whether a message is only an assertion form once its values are gone ("expected 200, got
 * 500", "expected: <PAID> but was: <DECLINED>", "3 !== 4"): its values are then what tells two
 * assertions apart, so they stay part of the fingerprint.
 */
export function isGenericAssertion(message: string): boolean {
  const words = message
    .replace(QUOTED, " ")
    .toLowerCase()
    .match(/[a-z]+/g);
  if (!words) return true;
  return words.every((word) => GENERIC_WORDS.has(word));
}

function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * A message's volatile values as placeholders: UUIDs, timestamps, hex ids, IP addresses,
 * ports, temporary and absolute paths, line:column, durations and (unless `keepValues`)
 * numbers. Colour codes and code excerpts go first.
 */
export function normaliseMessage(text: string, { keepValues = false } = {}): string {
  // Each rule runs only where it can match (each needs a digit, a colon, a dash, a slash or a
  // bar; replacing never adds a digit): a 100k-test upload fingerprints 10,000 failures inside
  // its transaction.
  let out = stripAnsi(text);
  if (out.includes("|")) {
    out = out
      .split("\n")
      .filter((line) => !CODE_FRAME_LINE.test(line))
      .join("\n");
  }
  const digits = DIGIT.test(out);
  if (digits || out.includes(":") || out.includes("-")) {
    for (const [pattern, placeholder] of VOLATILE) out = out.replace(pattern, placeholder);
  }
  if (out.includes("/") || out.includes("\\")) {
    out = out.replace(TEMP_PATH, (path) => `<tmp>/${lastSegments(path).slice("<path>/".length)}`);
    out = out.replace(ABSOLUTE_PATH, lastSegments);
  }
  if (digits && out.includes(":")) {
    out = out.replace(LINE_COLUMN, "$1");
    out = out.replace(HOST_PORT, "$1:<port>");
  }
  if (!keepValues && digits) {
    out = out.replace(DURATION, "<duration>");
    out = out.replace(NUMBER, "<n>");
  }
  return collapse(out).slice(0, FINGERPRINT_MESSAGE_LIMIT);
}

const TYPE_PREFIX =
  /^\s*([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:Error|Exception|Failure)?)(?: \[[A-Z_]+\])?: /;

function typeFromText(text: string): string | null {
  const match = TYPE_PREFIX.exec(text);
  if (!match?.[1]) return null;
  const type = match[1];
  return /(Error|Exception|Failure|Failed)$/.test(type) || type === "Error" ? type : null;
}

/** Frames of runtimes, test runners and assertion libraries: never the project's own code. */
const FOREIGN_FRAME =
  /node_modules|node:|internal\/|\(native\)|^at <anonymous>$|^\s*at (?:java|javax|jdk|sun|kotlin|scala|org\.junit|junit\.|org\.opentest4j|org\.testng|org\.assertj|org\.hamcrest|org\.apache\.maven|org\.gradle|com\.intellij)\.|site-packages|dist-packages|\/lib\/python|playwright-core|@playwright|webdriverio|@wdio|@cucumber/;

const JS_FRAME = /^\s*at (?:(?:async )?(.+?) \()?(.+?)(?::\d+)?(?::\d+)?\)?\s*$/;
const JAVA_FRAME = /^\s*at ([\w$.<>]+)\((?:[^)]*)\)\s*$/;
const PYTHON_FRAME = /^\s*File "(.+?)", line \d+, in (.+)$/;

function frameOf(line: string): string | null {
  const java = JAVA_FRAME.exec(line);
  if (java?.[1] && !line.includes("/") && !line.includes(".js")) return java[1];
  const python = PYTHON_FRAME.exec(line);
  if (python?.[1] && python[2]) return `${normalisePath(python[1])} in ${python[2]}`;
  const js = JS_FRAME.exec(line);
  if (!js?.[2]) return null;
  const file = normalisePath(js[2].replace(/:\d+(:\d+)?$/, ""));
  return js[1] ? `${js[1]} (${file})` : file;
}

function normalisePath(path: string): string {
  const parts = path
    .replace(/^file:\/\//, "")
    .split(/[\\/]/)
    .filter(Boolean);
  return parts.slice(-2).join("/");
}

/**
 * The first frame of the project's own code: not a dependency (node_modules, site-packages,
 * java.*, org.junit.*), not the runtime (node:internal); without line and column, and with
 * only the last two segments of its path (checkouts and temp folders differ between runs).
 */
export function topOwnFrame(stack: string): string | null {
  for (const line of stripAnsi(stack).split("\n")) {
    if (!/^\s*(at |File ")/.test(line)) continue;
    if (FOREIGN_FRAME.test(line.trim())) continue;
    const frame = frameOf(line);
    if (frame) return frame;
  }
  return null;
}

/** A failure's type, message and stack as reporters give them, split where they come joined. */
function partsOf(failure: FailureText): { type: string; message: string; stack: string } {
  let message = stripAnsi(failure.message ?? "");
  let stack = stripAnsi(failure.stack ?? "");
  const start = STACK_START.exec(message);
  if (start) {
    stack = stack || message.slice(start.index);
    message = message.slice(0, start.index);
  }
  if (!message.trim() && stack) message = stack.split(STACK_START)[0] ?? "";
  const type = failure.name?.trim() || typeFromText(message) || typeFromText(stack) || "Error";
  // "Error: boom" in a message whose type is Error: the type is said once, in errorType.
  const prefix = TYPE_PREFIX.exec(message);
  if (prefix && (prefix[1] === type || typeFromText(message)))
    message = message.slice(prefix[0].length);
  return { type, message, stack };
}

/** The fingerprint of one failure (see the module's comment and docs/triage.md). */
export function fingerprintFailure(failure: FailureText): FailureFingerprint {
  const { type, message, stack } = partsOf(failure);
  const stripped = normaliseMessage(message);
  const normalised = isGenericAssertion(stripped)
    ? normaliseMessage(message, { keepValues: true })
    : stripped;
  const frame = stack ? topOwnFrame(stack) : null;
  return {
    errorType: type,
    message: normalised,
    frame,
    key: `${type}\n${normalised}\n${frame ?? ""}`,
  };
}
