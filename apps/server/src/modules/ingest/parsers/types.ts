import type { Readable } from "node:stream";
import type { LoadEndpointStat, ReportFormat, ResultInput } from "@assay/core";
import { AppError } from "../../../errors.js";

/**
 * One uploaded file, spooled to disk by the ingest route. Parsers read it as a stream; `name` is
 * the client's file name (or the path inside a zip), used only to match references and in error
 * messages, never as a storage path.
 */
export interface ReportFile {
  name: string;
  size: number;
  open(): Readable;
  /**
   * The bytes, when the upload holds this file in memory (small files are not written to disk):
   * readers take them without a round trip to the file system. Read-only.
   */
  readonly content?: Buffer;
}

/** Every file of one upload, by name, so a report can point at its screenshots and attachments. */
export interface UploadFiles {
  get(name: string): ReportFile | undefined;
  all(): readonly ReportFile[];
}

/** Reports name attachments by the path they had on the CI machine: match it, then its tail. */
/** A reference with forward slashes, as upload file names have them. */
export const normalizedReference = (reference: string) => reference.replace(/\\/g, "/");

export function findFile(files: UploadFiles, reference: string): ReportFile | undefined {
  const normalized = normalizedReference(reference);
  const exact = files.get(normalized);
  if (exact) return exact;
  const parts = normalized.split("/").filter(Boolean);
  for (let i = 1; i < parts.length; i++) {
    const found = files.get(parts.slice(i).join("/"));
    if (found) return found;
  }
  return undefined;
}

/** Where a problem is: a line/column for text formats, a JSON path for JSON. */
export interface ReportLocation {
  line?: number;
  column?: number;
  path?: string;
}

/** Line and column (both 1-based) of an offset in text. */
export function locate(text: string, offset: number): ReportLocation {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** The report is malformed or unsafe; the upload is refused with 400 and nothing is stored. */
export class ReportError extends Error {
  constructor(
    readonly file: string,
    /** What is wrong, without the file and position the message starts with. */
    readonly reason: string,
    readonly location: ReportLocation = {},
  ) {
    const where = [
      location.line !== undefined ? `line ${location.line}` : "",
      location.column !== undefined ? `column ${location.column}` : "",
      location.path ? `at ${location.path}` : "",
    ]
      .filter(Boolean)
      .join(", ");
    super(`${file}${where ? ` (${where})` : ""}: ${reason}`);
    this.name = "ReportError";
  }
}

/** Turns a parser's complaint into the 400 the client sees, naming file and position. */
export function reportErrorToAppError(error: unknown): unknown {
  if (!(error instanceof ReportError)) return error;
  return new AppError(400, "invalid_report", error.message, {
    file: error.file,
    ...error.location,
  });
}

/**
 * Tells the uploader about something a report says that Assay stored otherwise than written (a
 * test case without a name, totals that disagree with the tests listed): the report is kept, and
 * the message goes into the upload's answer and onto the run. It starts with the file's name.
 */
export type Warn = (message: string) => void;

/** Warnings an upload keeps: the first ones, and how many more there were. */
export const MAX_WARNINGS = 20;

export class Warnings {
  private readonly kept: string[] = [];
  private more = 0;

  readonly add: Warn = (message) => {
    if (this.kept.length < MAX_WARNINGS) this.kept.push(message);
    else this.more++;
  };

  all(): string[] {
    return this.more ? [...this.kept, `... and ${this.more} more warnings`] : [...this.kept];
  }
}

/** How the uploader asked for a report to be read (upload fields that change parsing). */
export interface ParseOptions {
  /**
   * JUnit: same-named test cases of one suite are attempts of one test (as some rerun tools write
   * them) rather than distinct tests. Off by default: a report's test cases are all counted.
   */
  junitRetries?: boolean;
  warn?: Warn;
}

/**
 * A parsed result, with what its format says about which entries are attempts of one test when
 * several share a file, suite path and name. Entries with one `testKey` are attempts of one test,
 * entries with different keys are different tests, whatever their attempt numbers and order:
 * Allure's historyId (attempts of parametrised tests of one name interleave in time), and each
 * Mocha entry its own (Mocha lists a retried test once, with its final attempt's number). Without
 * a key, an attempt after the first belongs to the last same-named test before it.
 */
export interface ParsedResult extends ResultInput {
  testKey?: string;
}

/** What a test-result parser yields: results one by one, so memory stays flat. */
export type ResultParser = (
  file: ReportFile,
  files: UploadFiles,
  options?: ParseOptions,
) => AsyncIterable<ParsedResult>;

/** What the load-test parser returns: per-endpoint rows, plus the HTML report if uploaded. */
export interface LoadReport {
  stats: LoadEndpointStat[];
  htmlReport?: ReportFile;
}

export type { ReportFormat };

/** The whole file: its bytes in memory, else read through open(). */
export async function readBytes(file: ReportFile): Promise<Buffer> {
  if (file.content) return file.content;
  const chunks: Buffer[] = [];
  for await (const chunk of file.open()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The first `bytes` bytes (fewer for a shorter file), reading no more of it than needed. */
export async function readHead(file: ReportFile, bytes: number): Promise<Buffer> {
  if (file.content) return file.content.subarray(0, bytes);
  const chunks: Buffer[] = [];
  let size = 0;
  // Leaving the loop early destroys the stream: only the head is read.
  for await (const chunk of file.open()) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
    if (size >= bytes) break;
  }
  return Buffer.concat(chunks).subarray(0, bytes);
}

/** How far readInOrder reads ahead: files in flight, and their bytes (one file may exceed it). */
export interface ReadAhead {
  files: number;
  bytes: number;
}

export const READ_AHEAD: Readonly<ReadAhead> = { files: 16, bytes: 16 * 1024 * 1024 };

/**
 * Calls `read` on each file, a bounded number at once, and yields the answers in the files'
 * order. Each open, read and close is a round trip to the thread pool, so reading thousands of
 * small files one after the other leaves the process idle; overlapping them does not. A failure
 * is thrown in its turn, as a one-at-a-time loop would throw it.
 */
export async function* readInOrder<T>(
  files: readonly ReportFile[],
  read: (file: ReportFile, index: number) => Promise<T>,
  ahead: Readonly<ReadAhead> = READ_AHEAD,
): AsyncGenerator<T> {
  const pending: { answer: Promise<T>; size: number }[] = [];
  let next = 0;
  let bytes = 0;
  const fill = () => {
    while (next < files.length && pending.length < ahead.files) {
      const file = files[next]!;
      if (pending.length > 0 && bytes + file.size > ahead.bytes) return;
      const answer = read(file, next);
      // Awaited in its turn below; until then a failure must not count as unhandled.
      answer.catch(() => undefined);
      pending.push({ answer, size: file.size });
      bytes += file.size;
      next++;
    }
  };
  fill();
  while (pending.length > 0) {
    const first = pending[0]!;
    const value = await first.answer;
    pending.shift();
    bytes -= first.size;
    // The next reads start before the caller works on this answer.
    fill();
    yield value;
  }
}
