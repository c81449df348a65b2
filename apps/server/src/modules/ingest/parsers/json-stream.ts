import { AppError } from "../../../errors.js";
import { MAX_JSON_DEPTH, parseJsonText } from "./json.js";
import { type FramedValue, JsonFraming } from "./json-framing.js";
import { ReportError, type ReportFile } from "./types.js";

/**
 * The largest value read whole: one element of a list (a Cucumber feature, a CTRF test, a
 * Playwright file suite, a Mocha test) or a value outside the lists. A string in V8 holds at most
 * 512 MB, and the server's memory should hold one test, not the report.
 */
export const MAX_JSON_VALUE_BYTES = 128 * 1024 * 1024;

export interface StreamedElement {
  /** Which of the lists it is in (an index into `lists`). */
  list: number;
  index: number;
  value: unknown;
}

/**
 * A JSON report read as the file streams in: the elements of its long lists one at a time (the
 * features of a Cucumber report, CTRF's results.tests, Playwright's suites, Mocha's tests), so
 * that memory holds one element instead of the report. Every value is parsed by parseJsonText,
 * with its protections: `__proto__` refused, nesting bounded (within each value), and a syntax
 * error's line and column, in the file's terms.
 */
export class StreamedJson {
  private readonly framing: JsonFraming;

  constructor(
    private readonly file: ReportFile,
    /** The key paths of the lists; [] is a top-level array. */
    lists: readonly (readonly string[])[],
    /** The complaint when the file's top level is not the object (or array) the lists are in. */
    notReport: string,
    private readonly maxDepth = MAX_JSON_DEPTH,
  ) {
    this.framing = new JsonFraming(
      file.name,
      lists,
      notReport,
      (value) => this.parse(value),
      (value) => this.checkSize(value),
    );
  }

  /**
   * The report without its lists' elements (a list stands as []), as far as the file has been
   * read: whole once elements() has ended. A value the file gives before a list is there when
   * the list's first element is yielded.
   */
  get root(): unknown {
    return this.framing.root;
  }

  /** The lists' elements in the file's order, each parsed as it is reached. */
  async *elements(): AsyncGenerator<StreamedElement> {
    for await (const chunk of this.file.open()) {
      for (const { value, list, index } of this.framing.push(chunk as Buffer)) {
        yield { list, index, value: this.parse(value) };
      }
    }
    // A value the file ends in is broken, or the report is: its parse names what is wrong.
    const unfinished = this.framing.unfinished();
    if (unfinished) this.parse(unfinished);
    this.framing.end();
  }

  private parse(value: FramedValue): unknown {
    const { name } = this.file;
    try {
      return parseJsonText(name, Buffer.concat(value.parts).toString("utf8"), this.maxDepth);
    } catch (error) {
      if (!(error instanceof ReportError) || error.location.line === undefined) throw error;
      // Positions within the value, moved to where it starts in the file.
      const { line, column = 1 } = error.location;
      const at = value.start;
      throw new ReportError(name, error.reason, {
        line: at.line + line - 1,
        column: line === 1 ? at.column + column - 1 : column,
      });
    }
  }

  private checkSize(value: FramedValue): void {
    if (value.size <= MAX_JSON_VALUE_BYTES) return;
    const mb = MAX_JSON_VALUE_BYTES / 1024 / 1024;
    const { line, column } = value.start;
    throw new AppError(
      413,
      "payload_too_large",
      `${this.file.name} (line ${line}, column ${column}): one value of this JSON report is over ${mb} MB. ` +
        `Its tests are read one at a time, each up to ${mb} MB, and so is each value outside them. ` +
        "Split the report (shards uploaded with the same run key become one run), or send JUnit XML.",
    );
  }
}
