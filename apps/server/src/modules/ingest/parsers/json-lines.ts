import { StringDecoder } from "node:string_decoder";
import type { z } from "zod";
import { AppError } from "../../../errors.js";
import { parseJsonText } from "./json.js";
import { validateReport } from "./json-report.js";
import { MAX_JSON_VALUE_BYTES } from "./json-stream.js";
import { ReportError, type ReportFile } from "./types.js";

/*
 * Event streams written one JSON object a line (`go test -json`, `dart test --reporter json`):
 * read line by line as the file streams in, so memory holds one line, never the report.
 */

export interface Line {
  /** 1-based, as an editor counts. */
  number: number;
  text: string;
}

/**
 * The file's lines without their line breaks (a final line without one included), and without
 * a byte-order mark.
 */
export async function* linesOf(file: ReportFile): AsyncGenerator<Line> {
  const decoder = new StringDecoder("utf8");
  let pending = "";
  let number = 0;
  let first = true;
  for await (const chunk of file.open()) {
    pending += decoder.write(chunk as Buffer);
    if (first && pending.length > 0) {
      pending = pending.replace(/^\uFEFF/, "");
      first = false;
    }
    let start = 0;
    for (let end = pending.indexOf("\n"); end >= 0; end = pending.indexOf("\n", start)) {
      number++;
      yield { number, text: pending.slice(start, end).replace(/\r$/, "") };
      start = end + 1;
    }
    pending = pending.slice(start);
    if (pending.length > MAX_JSON_VALUE_BYTES) tooLong(file.name, number + 1);
  }
  pending += decoder.end();
  if (pending) yield { number: number + 1, text: pending.replace(/\r$/, "") };
}

function tooLong(name: string, line: number): never {
  const mb = MAX_JSON_VALUE_BYTES / 1024 / 1024;
  throw new AppError(
    413,
    "payload_too_large",
    `${name} (line ${line}): one line of this report is over ${mb} MB; each event is read alone, up to ${mb} MB.`,
  );
}

/** One line's JSON value; a syntax error names the line (and column) in the file. */
export function parseLine(name: string, line: Line): unknown {
  try {
    return parseJsonText(name, line.text);
  } catch (error) {
    if (!(error instanceof ReportError)) throw error;
    throw new ReportError(name, error.reason, {
      line: line.number,
      ...(error.location.column !== undefined && { column: error.location.column }),
    });
  }
}

/** The first line of a head that starts with `{`, for detection of an event stream. */
export function firstJsonLine(head: string): string | undefined {
  return head
    .replace(/^\uFEFF/, "")
    .split("\n")
    .find((line) => line.trimStart().startsWith("{"));
}

/** One line's event checked against its schema; a mismatch names the line and the field. */
export function lineEvent<T extends z.ZodType>(
  name: string,
  line: Line,
  schema: T,
  value: unknown = parseLine(name, line),
): z.output<T> {
  try {
    return validateReport(name, value, schema);
  } catch (error) {
    if (!(error instanceof ReportError)) throw error;
    throw new ReportError(name, error.reason, { line: line.number, ...error.location });
  }
}
