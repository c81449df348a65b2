import { MAX_JSON_DEPTH, parseJsonText } from "./json.js";
import { ReportError, type ReportFile } from "./types.js";

const [SPACE, TAB, LF, CR] = [0x20, 0x09, 0x0a, 0x0d];
const [QUOTE, BACKSLASH, COMMA] = [0x22, 0x5c, 0x2c];
const [OPEN_ARRAY, CLOSE_ARRAY, OPEN_OBJECT, CLOSE_OBJECT] = [0x5b, 0x5d, 0x7b, 0x7d];
const UTF8_BOM = [0xef, 0xbb, 0xbf];
const isSpace = (c: number) => c === SPACE || c === TAB || c === LF || c === CR;

interface Position {
  line: number;
  column: number;
}

/**
 * The elements of a JSON report whose top level is an array (Cucumber's features), one at a
 * time as the file is read, so that memory holds one element instead of the report. The file is
 * only framed here, by its brackets, commas and strings (as NDJSON is framed by its lines); each
 * element is parsed by parseJsonText, with its protections: `__proto__` refused, nesting bounded
 * (within each element), and a syntax error's line and column, in the file's terms.
 * `notArray` is the complaint when the file's value is not an array.
 */
export async function* readJsonArray(
  file: ReportFile,
  notArray: string,
  maxDepth = MAX_JSON_DEPTH,
): AsyncGenerator<unknown> {
  const framing = new ArrayFraming(file.name, notArray);
  for await (const chunk of file.open()) {
    for (const element of framing.push(chunk as Buffer)) {
      yield parseElement(file.name, element, maxDepth);
    }
  }
  // An element the file ends in is broken, or the array is: its parse names what is wrong.
  const unfinished = framing.unfinished();
  if (unfinished) parseElement(file.name, unfinished, maxDepth);
  framing.end();
}

function parseElement(name: string, element: Element, maxDepth: number): unknown {
  try {
    return parseJsonText(name, Buffer.concat(element.parts).toString("utf8"), maxDepth);
  } catch (error) {
    if (!(error instanceof ReportError) || error.location.line === undefined) throw error;
    // Positions within the element, moved to where it starts in the file.
    const { line, column = 1 } = error.location;
    const at = element.start;
    throw new ReportError(name, error.reason, {
      line: at.line + line - 1,
      column: line === 1 ? at.column + column - 1 : column,
    });
  }
}

interface Element {
  parts: Buffer[];
  start: Position;
}

/** Finds where each top-level element starts and ends, across the chunks of a file. */
class ArrayFraming {
  /**
   * before: no '[' yet; first: after '[' (a value or ']'); next: after a comma (a value);
   * inside: in an element; done: after the closing ']'.
   */
  private state: "before" | "first" | "next" | "inside" | "done" = "before";
  private depth = 0;
  private inString = false;
  private escaped = false;
  private line = 1;
  private column = 0;
  private element: Element | undefined;
  private bom = 0;

  constructor(
    private readonly name: string,
    private readonly notArray: string,
  ) {}

  /** The elements that end in `chunk`. */
  push(chunk: Buffer): Element[] {
    const done: Element[] = [];
    let from = 0;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (c === LF) {
        this.line++;
        this.column = 0;
      } else this.column++;
      if (this.state === "inside") {
        if (this.inString) {
          if (this.escaped) this.escaped = false;
          else if (c === BACKSLASH) this.escaped = true;
          else if (c === QUOTE) this.inString = false;
          continue;
        }
        if (c === QUOTE) this.inString = true;
        else if (c === OPEN_ARRAY || c === OPEN_OBJECT) this.depth++;
        else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) this.depth--;
        // The element ends where its own nesting does: at the comma or the bracket after it.
        if (this.depth < 0 || (this.depth === 0 && c === COMMA)) {
          this.element!.parts.push(chunk.subarray(from, i));
          done.push(this.element!);
          this.element = undefined;
          this.state = c === COMMA ? "next" : "done";
          this.depth = 0;
        }
        continue;
      }
      if (this.state === "before" && this.bom < 3 && c === UTF8_BOM[this.bom]) {
        this.bom++;
        this.column = 0;
        continue;
      }
      if (isSpace(c)) continue;
      if (this.state === "before") {
        if (c !== OPEN_ARRAY) throw new ReportError(this.name, this.notArray);
        this.state = "first";
      } else if (this.state === "first" && c === CLOSE_ARRAY) {
        this.state = "done";
      } else if (this.state === "first" || this.state === "next") {
        if (c === CLOSE_ARRAY || c === COMMA) throw this.invalid("a value expected");
        this.element = { parts: [], start: { line: this.line, column: this.column } };
        this.state = "inside";
        from = i;
        // Read again as the element's first character.
        i--;
        this.column--;
      } else {
        throw this.invalid("unexpected text after the array");
      }
    }
    if (this.element) this.element.parts.push(Buffer.from(chunk.subarray(from)));
    return done;
  }

  /** The element the file ended in, if it ended in one. */
  unfinished(): Element | undefined {
    return this.element;
  }

  /** Complains when the file ended before its array did. */
  end(): void {
    if (this.state === "before") throw new ReportError(this.name, this.notArray);
    if (this.state !== "done") {
      throw new ReportError(this.name, "invalid JSON: the file ends before its array does", {
        line: this.line,
        column: this.column + 1,
      });
    }
  }

  private invalid(what: string): ReportError {
    return new ReportError(this.name, `invalid JSON: ${what}`, {
      line: this.line,
      column: this.column,
    });
  }
}
