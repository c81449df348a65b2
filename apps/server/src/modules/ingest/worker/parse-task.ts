import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import type { MessagePort } from "node:worker_threads";
import type { ReportFormat, ResultInput } from "@assay/core";
import { AppError } from "../../../errors.js";
import type { ReportFile, UploadFiles } from "../parsers/types.js";
import type { RunFacts } from "../pipeline/result-rows.js";
import type { BatchFacts } from "../pipeline/result-facts.js";
import type { PackedRows } from "../encoding/row-buffer.js";
import type { PackedTests } from "../test-ids/batch-tests.js";
import type { Family } from "../test-ids/test-identity.js";

/*
 * What the ingest route and its parse worker (parse-worker.ts) send each other. Everything here
 * is plain, structured-clonable data: classes do not cross threads.
 */

/** An upload file as the worker reads it: from disk, or its bytes (a copy) when held in memory. */
export interface FileData {
  name: string;
  size: number;
  path?: string;
  content?: Uint8Array;
}

export interface ParseTask {
  /** Batches go out through it; the route answers each with "more" once it has taken it. */
  port: MessagePort;
  files: FileData[];
  format: "auto" | ReportFormat;
  runId: number;
  /** The run's created_at (ISO text): its results' partition key. */
  runAt: string;
  family: Family;
  /** Regular expression source (case-insensitive); its first group is a test's stable id. */
  testIdPattern: string;
  runFacts: RunFacts;
  /** test_run_test_ids the run already holds. */
  existing: string[];
  /** JUnit: same-named test cases of one suite are attempts of one test (ParseOptions). */
  junitRetries?: boolean;
  batchSize?: number;
}

/** A file an attachment reference resolved to: an upload file by name, or bytes (from a zip). */
export type AttachedFile = { upload: string } | { bytes: Uint8Array };

export interface ChildData {
  index: number;
  result: ResultInput;
  /** Each attachment path of the result that resolved (normalizedReference), and to what. */
  attached: [reference: string, file: AttachedFile][];
}

export interface BatchData {
  rows: PackedRows;
  /** The batch's new texts, as COPY rows (PreparedBatch.texts). */
  texts: PackedRows;
  tests: PackedTests;
  /** Its rows' tuples of run facts (PreparedBatch.facts: small, posted as it is). */
  facts: BatchFacts;
  children: ChildData[];
  outcomes: string;
}

export interface SummaryData {
  duplicates: number;
  /** A RunTally's fields (RunTally.from makes it one again). */
  tally: object;
  retried: number[];
}

/** An AppError's fields (a ReportError arrives already turned into its 400). */
export interface ErrorData {
  statusCode: number;
  code: string;
  message: string;
  details?: unknown;
}

export type WorkerMessage =
  | { kind: "batch"; batch: BatchData }
  | { kind: "done"; summary: SummaryData; warnings: string[] }
  | { kind: "failed"; error: ErrorData | { message: string } };

export function fileData(file: ReportFile & { path?: string }): FileData {
  if (file.path !== undefined) return { name: file.name, size: file.size, path: file.path };
  return { name: file.name, size: file.size, content: file.content! };
}

export function reportFile(data: FileData): ReportFile {
  const { name, size, path, content } = data;
  if (path !== undefined) return { name, size, open: () => createReadStream(path) };
  const bytes = Buffer.from(content!.buffer, content!.byteOffset, content!.byteLength);
  return { name, size, content: bytes, open: () => Readable.from([bytes], { objectMode: false }) };
}

/** Files by name, in upload order. */
export class FileSet implements UploadFiles {
  private readonly byName: Map<string, ReportFile>;

  constructor(private readonly files: ReportFile[]) {
    this.byName = new Map(files.map((f) => [f.name, f]));
  }

  get(name: string): ReportFile | undefined {
    return this.byName.get(name);
  }

  all(): readonly ReportFile[] {
    return this.files;
  }
}

/** An error as data; AppError (and ReportError, as its 400) keep what the client is told. */
export function errorData(error: unknown): ErrorData | { message: string } {
  if (error instanceof AppError) {
    const { statusCode, code, message, details } = error;
    return { statusCode, code, message, details };
  }
  return { message: error instanceof Error ? (error.stack ?? error.message) : String(error) };
}

export function errorFromData(data: ErrorData | { message: string }): Error {
  if ("code" in data) return new AppError(data.statusCode, data.code, data.message, data.details);
  return new Error(`report parsing failed: ${data.message}`);
}
