import { pipeline } from "node:stream";
import type { LoadEndpointStat } from "@assay/core";
import { CsvError, parse, type CsvErrorCode } from "csv-parse";
import { ReportError, type LoadReport, type ReportFile, type UploadFiles } from "./types.js";

/** Far more endpoints than any readable Locust run has; bounds memory for a hostile file. */
export const MAX_LOCUST_ROWS = 10_000;
/** Longest accepted CSV row (Locust rows are a name plus ~20 numbers). */
export const MAX_LOCUST_ROW_CHARS = 64 * 1024;

const HEAD_BYTES = 4096;

/** The columns every Locust ≥ 1.0 stats CSV has, whatever percentiles it was told to report. */
const COLUMNS = {
  method: "Type",
  name: "Name",
  requests: "Request Count",
  failures: "Failure Count",
  median: "Median Response Time",
  average: "Average Response Time",
  min: "Min Response Time",
  max: "Max Response Time",
  rps: "Requests/s",
  fps: "Failures/s",
} as const;
/** Only present with Locust's default PERCENTILES_TO_REPORT; a run that changed them may lack them. */
const PERCENTILES = { p95: "95%", p99: "99%" } as const;

type ColumnKey = keyof typeof COLUMNS | keyof typeof PERCENTILES;
/** Where each column is in the header (0-based). */
type ColumnIndex = Record<keyof typeof COLUMNS, number> &
  Record<keyof typeof PERCENTILES, number | undefined>;

const HEADER_START = /^\uFEFF?"?Type"?,"?Name"?,"?Request Count"?(?:,|\r?\n|$)/;
const STATS_FILE_NAME = /(?:^|[\\/_])stats\.csv$/i;
const WHOLE_NUMBER = /^\d+$/;
const DECIMAL = /^\d+(?:\.\d+)?(?:[eE][-+]?\d+)?$/;
const EXPECTED = "Locust's stats CSV (PREFIX_stats.csv, written by `locust --csv PREFIX`)";

/**
 * True when the head of a file is the header of Locust's stats CSV (`Type,Name,Request Count,…`,
 * quoted or not). The failures, exceptions and history CSVs have other headers, so they are not
 * taken for it.
 */
export function detectLocust(head: string, _fileName: string): boolean {
  return HEADER_START.test(head);
}

/**
 * Reads a Locust run from an upload: the stats CSV (found by its header, or by a `*_stats.csv`
 * name so a damaged header is reported precisely) becomes one row per endpoint plus the
 * Aggregated row; an uploaded `.html` file is passed on as the run's HTML report. The failures,
 * exceptions and history CSVs are ignored.
 */
export async function parseLocust(files: UploadFiles): Promise<LoadReport> {
  const statsFile = await findStatsFile(files);
  const stats = await readStats(statsFile);
  const htmlReport = files.all().find((f) => /\.html?$/i.test(f.name));
  return htmlReport ? { stats, htmlReport } : { stats };
}

async function findStatsFile(files: UploadFiles): Promise<ReportFile> {
  const all = files.all();
  const candidates: ReportFile[] = [];
  for (const file of all) {
    if (!/\.csv$/i.test(file.name)) continue;
    if (STATS_FILE_NAME.test(file.name) || detectLocust(await readHead(file), file.name)) {
      candidates.push(file);
    }
  }
  const [first, second] = candidates;
  if (second) {
    const names = candidates.map((f) => f.name).join(", ");
    throw new ReportError(
      second.name,
      `more than one Locust stats CSV in one upload (${names}); upload one run at a time`,
    );
  }
  if (first) return first;
  const only = all.length === 1 ? all[0] : undefined;
  if (!only) {
    throw new ReportError("upload", `no uploaded file is ${EXPECTED}`);
  }
  if ((await readHead(only)).replace(/^\uFEFF/, "").trim() === "") {
    throw new ReportError(only.name, `the file is empty; expected ${EXPECTED}`);
  }
  throw new ReportError(
    only.name,
    `not ${EXPECTED}: the header must start with Type,Name,Request Count`,
    { line: 1 },
  );
}

async function readHead(file: ReportFile): Promise<string> {
  const stream = file.open();
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
      if (size >= HEAD_BYTES) break;
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks).subarray(0, HEAD_BYTES).toString("utf8");
}

/**
 * Line numbers are counted here: csv-parse counts "\r\n" inside a quoted field as two lines, and
 * a CSV error can end the iteration before the rows it follows are read.
 */
interface Progress {
  /** The line the next row starts on, before any blank lines. */
  next: number;
  /** Blank lines csv-parse had skipped when the last row ended. */
  emptyLines: number;
  width: number | undefined;
}

async function readStats(file: ReportFile): Promise<LoadEndpointStat[]> {
  const progress: Progress = { next: 1, emptyLines: 0, width: undefined };
  const startLine = new WeakMap<string[], number>();
  const parser = parse({
    bom: true,
    skip_empty_lines: true,
    max_record_size: MAX_LOCUST_ROW_CHARS,
    on_record: (record, context) => {
      const start = progress.next + context.empty_lines - progress.emptyLines;
      progress.next = start + 1 + lineBreaks(record);
      progress.emptyLines = context.empty_lines;
      progress.width ??= record.length;
      startLine.set(record, start);
      return record;
    },
  });
  // Errors of either stream end the iteration below; the callback only keeps them from being
  // reported twice.
  pipeline(file.open(), parser, () => undefined);

  let columns: ColumnIndex | undefined;
  let aggregatedLine: number | undefined;
  const stats: LoadEndpointStat[] = [];
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      const line = startLine.get(record) ?? progress.next;
      if (!columns) {
        columns = headerColumns(file.name, record, line);
        continue;
      }
      if (stats.length >= MAX_LOCUST_ROWS) {
        throw new ReportError(file.name, `more than ${MAX_LOCUST_ROWS} endpoint rows`, { line });
      }
      const stat = toStat({ file: file.name, record, line, columns });
      if (stat.aggregated) {
        if (aggregatedLine !== undefined) {
          throw new ReportError(
            file.name,
            `a second Aggregated row (the first is on line ${aggregatedLine}); Locust writes one`,
            { line },
          );
        }
        aggregatedLine = line;
      }
      stats.push(stat);
    }
  } catch (error) {
    throw error instanceof CsvError ? csvError(file.name, error, progress) : error;
  }
  if (!columns) throw new ReportError(file.name, `the file is empty; expected ${EXPECTED}`);
  if (aggregatedLine === undefined) {
    throw new ReportError(
      file.name,
      'no Aggregated row (empty Type, Name "Aggregated"); Locust ends its stats CSV with one, so the file may be cut short',
    );
  }
  return stats;
}

function lineBreaks(record: readonly string[]): number {
  return record.reduce((n, field) => n + (field.match(/\r\n|\r|\n/g)?.length ?? 0), 0);
}

function headerColumns(file: string, header: readonly string[], line: number): ColumnIndex {
  const find = (name: string): number | undefined => {
    const index = header.indexOf(name);
    if (index < 0) return undefined;
    const again = header.indexOf(name, index + 1);
    if (again >= 0) {
      throw new ReportError(file, `column "${name}" appears twice in the header`, {
        line,
        column: again + 1,
      });
    }
    return index;
  };
  const required = (name: string): number => {
    const index = find(name);
    if (index !== undefined) return index;
    throw new ReportError(file, `missing column "${name}" in the header of ${EXPECTED}`, { line });
  };
  const index = Object.fromEntries(
    Object.entries(COLUMNS).map(([key, name]) => [key, required(name)]),
  ) as Record<keyof typeof COLUMNS, number>;
  return { ...index, p95: find(PERCENTILES.p95), p99: find(PERCENTILES.p99) };
}

interface Row {
  file: string;
  record: readonly string[];
  line: number;
  columns: ColumnIndex;
}

function columnName(key: ColumnKey): string {
  return key === "p95" || key === "p99" ? PERCENTILES[key] : COLUMNS[key];
}

function text(row: Row, key: ColumnKey): string {
  const index = row.columns[key] ?? -1;
  const value = row.record[index] ?? "";
  if (value.includes("\0")) {
    throw new ReportError(row.file, `"${columnName(key)}" contains a NUL character`, {
      line: row.line,
      column: index + 1,
    });
  }
  return value;
}

/** Python writes plain decimals ("12.7", "0.0", "1e-05"); anything else is refused. */
function numberAt(row: Row, key: ColumnKey, kind: "count" | "rate"): number;
function numberAt(row: Row, key: ColumnKey, kind: "time"): number | null;
function numberAt(row: Row, key: ColumnKey, kind: "count" | "rate" | "time"): number | null {
  if (kind === "time" && row.columns[key] === undefined) return null;
  const value = text(row, key);
  if (kind === "time" && value === "N/A") return null;
  const n = Number(value);
  const ok =
    kind === "count"
      ? WHOLE_NUMBER.test(value) && Number.isSafeInteger(n)
      : DECIMAL.test(value) && Number.isFinite(n);
  if (ok) return n;
  const expected = {
    count: "a whole number",
    rate: "a number",
    time: 'a number of milliseconds or "N/A"',
  }[kind];
  throw new ReportError(row.file, `"${columnName(key)}" must be ${expected}`, {
    line: row.line,
    column: (row.columns[key] ?? 0) + 1,
  });
}

function toStat(row: Row): LoadEndpointStat {
  const method = text(row, "method");
  const name = text(row, "name");
  const requests = numberAt(row, "requests", "count");
  return {
    method,
    name,
    requests,
    failures: numberAt(row, "failures", "count"),
    median_ms: numberAt(row, "median", "time"),
    p95_ms: numberAt(row, "p95", "time"),
    p99_ms: numberAt(row, "p99", "time"),
    average_ms: numberAt(row, "average", "time"),
    min_ms: numberAt(row, "min", "time"),
    max_ms: numberAt(row, "max", "time"),
    // Without requests Locust writes 0 as a placeholder for these; 0 ms would be a lie.
    ...(requests === 0 ? { median_ms: null, average_ms: null, min_ms: null, max_ms: null } : {}),
    requests_per_s: numberAt(row, "rps", "rate"),
    failures_per_s: numberAt(row, "fps", "rate"),
    aggregated: method === "" && name === "Aggregated",
  };
}

const MISPLACED_QUOTE =
  'a misplaced quote: a field with quotes must be quoted whole, with inner quotes doubled ("")';
const CSV_MESSAGES: Partial<Record<CsvErrorCode, string>> = {
  CSV_QUOTE_NOT_CLOSED: "a quoted field is never closed",
  CSV_MAX_RECORD_SIZE: `a row is longer than ${MAX_LOCUST_ROW_CHARS} characters`,
  INVALID_OPENING_QUOTE: MISPLACED_QUOTE,
  CSV_INVALID_CLOSING_QUOTE: MISPLACED_QUOTE,
  CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE: MISPLACED_QUOTE,
};

/** The broken row starts after the last good one and the blank lines skipped since. */
function csvError(file: string, error: CsvError, progress: Progress): ReportError {
  const skipped = typeof error.empty_lines === "number" ? error.empty_lines : progress.emptyLines;
  const where = { line: progress.next + skipped - progress.emptyLines };
  if (error.code === "CSV_RECORD_INCONSISTENT_FIELDS_LENGTH") {
    const got = Array.isArray(error.record) ? `${error.record.length} fields` : "fields";
    const expected = progress.width === undefined ? "" : ` but the header has ${progress.width}`;
    return new ReportError(file, `the row has ${got}${expected}`, where);
  }
  return new ReportError(file, CSV_MESSAGES[error.code] ?? "the file is not valid CSV", where);
}
