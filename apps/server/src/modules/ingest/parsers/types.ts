import type { Readable } from "node:stream";
import type { LoadEndpointStat, ReportFormat, ResultInput } from "@assay/core";

/**
 * One uploaded file, spooled to disk by the ingest route. Parsers read it as a stream; `name` is
 * the client's file name (or the path inside a zip), used only to match references and in error
 * messages, never as a storage path.
 */
export interface ReportFile {
  name: string;
  size: number;
  open(): Readable;
}

/** Every file of one upload, by name, so a report can point at its screenshots and attachments. */
export interface UploadFiles {
  get(name: string): ReportFile | undefined;
  all(): readonly ReportFile[];
}

/** Where a problem is: a line/column for text formats, a JSON path for JSON. */
export interface ReportLocation {
  line?: number;
  column?: number;
  path?: string;
}

/** The report is malformed or unsafe; the upload is refused with 400 and nothing is stored. */
export class ReportError extends Error {
  constructor(
    readonly file: string,
    message: string,
    readonly location: ReportLocation = {},
  ) {
    const where = [
      location.line !== undefined ? `line ${location.line}` : "",
      location.column !== undefined ? `column ${location.column}` : "",
      location.path ? `at ${location.path}` : "",
    ]
      .filter(Boolean)
      .join(", ");
    super(`${file}${where ? ` (${where})` : ""}: ${message}`);
    this.name = "ReportError";
  }
}

/** What a test-result parser yields: results one by one, so memory stays flat. */
export type ResultParser = (file: ReportFile, files: UploadFiles) => AsyncIterable<ResultInput>;

/** What the load-test parser returns: per-endpoint rows, plus the HTML report if uploaded. */
export interface LoadReport {
  stats: LoadEndpointStat[];
  htmlReport?: ReportFile;
}

export type { ReportFormat };
