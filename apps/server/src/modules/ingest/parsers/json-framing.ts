import { ReportError } from "./types.js";

/*
 * Frames a JSON report as its bytes arrive, so that a report's long lists can be read one
 * element at a time (json-stream.ts). Nothing is parsed here: the framing finds where each value
 * starts and ends by its brackets, quotes and commas (as NDJSON is framed by its lines), and walks
 * only the objects on the way to the lists. Each value it frames is handed over whole, as bytes,
 * to be parsed by parseJsonText with its protections.
 */

const [SPACE, TAB, LF, CR] = [0x20, 0x09, 0x0a, 0x0d];
const [QUOTE, BACKSLASH, COMMA, COLON] = [0x22, 0x5c, 0x2c, 0x3a];
const [OPEN_ARRAY, CLOSE_ARRAY, OPEN_OBJECT, CLOSE_OBJECT] = [0x5b, 0x5d, 0x7b, 0x7d];
const UTF8_BOM = [0xef, 0xbb, 0xbf];
const isSpace = (c: number) => c === SPACE || c === TAB || c === LF || c === CR;
const isDelimiter = (c: number) =>
  isSpace(c) || c === COMMA || c === CLOSE_ARRAY || c === CLOSE_OBJECT;

/** How a JSON value can start. */
const VALUE_START = /^[[{"\-0-9tfn]$/;

export interface Position {
  line: number;
  column: number;
}

/** One value's bytes, from its first character to its last, and where it starts in the file. */
export interface FramedValue {
  parts: Buffer[];
  size: number;
  start: Position;
}

/** An element of one of the lists, framed but not parsed. */
export interface FramedElement {
  value: FramedValue;
  /** Which list (an index into the framing's lists). */
  list: number;
  index: number;
}

interface ObjectFrame {
  type: "object";
  path: string[];
  target: Record<string, unknown>;
  key: string;
  /**
   * first: after '{'; key: after a comma; keyText: in a key; colon: after it; value: after the
   * colon; next: after a value.
   */
  expect: "first" | "key" | "keyText" | "colon" | "value" | "next";
}

interface ListFrame {
  type: "list";
  list: number;
  index: number;
  /** first: after '['; value: after a comma; next: after an element. */
  expect: "first" | "value" | "next";
}

interface Capture extends FramedValue {
  depth: number;
  inString: boolean;
  escaped: boolean;
  scalar: boolean;
  from: number;
}

export class JsonFraming {
  /**
   * The report without its lists' elements (each list stands as []): the objects on the way to
   * the lists, with every other value parsed, as far as the file has been read.
   */
  root: unknown = undefined;
  private readonly stack: (ObjectFrame | ListFrame)[] = [];
  private started = false;
  private done = false;
  private capture: Capture | undefined;
  private line = 1;
  private column = 0;
  private bom = 0;

  constructor(
    private readonly name: string,
    /** The key paths of the lists read element by element; [] is a top-level array. */
    private readonly lists: readonly (readonly string[])[],
    private readonly notReport: string,
    /** Parses a value read whole: a key, or a value outside the lists. */
    private readonly parse: (value: FramedValue) => unknown,
    /** Called with each value's size so far; throws when it is too large to read whole. */
    private readonly checkSize: (value: FramedValue) => void,
  ) {}

  /** The elements that end in `chunk`, in the file's order. */
  push(chunk: Buffer): FramedElement[] {
    const found: FramedElement[] = [];
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (c === LF) {
        this.line++;
        this.column = 0;
      } else this.column++;
      const capture = this.capture;
      if (capture) {
        const end = this.scan(capture, c);
        if (end === undefined) continue;
        this.close(capture, chunk.subarray(capture.from, end === "after" ? i + 1 : i), found);
        if (end === "after") continue;
      }
      if (!this.started && this.bom < 3 && c === UTF8_BOM[this.bom]) {
        this.bom++;
        this.column = 0;
        continue;
      }
      if (!isSpace(c)) this.structure(c, i);
    }
    if (this.capture) {
      this.capture.parts.push(Buffer.from(chunk.subarray(this.capture.from)));
      this.capture.size += chunk.length - this.capture.from;
      this.capture.from = 0;
      this.checkSize(this.capture);
    }
    return found;
  }

  /** The value the file ended in, if it ended inside one: parsing it names what is wrong. */
  unfinished(): FramedValue | undefined {
    return this.capture;
  }

  /** Complains when the file ended before its report did. */
  end(): void {
    if (!this.started) throw new ReportError(this.name, this.notReport);
    if (!this.done) {
      throw new ReportError(this.name, "invalid JSON: the file ends before the report does", {
        line: this.line,
        column: this.column + 1,
      });
    }
  }

  /** Where a value being captured ends: after this byte, before it, or not yet (undefined). */
  private scan(k: Capture, c: number): "after" | "before" | undefined {
    if (k.inString) {
      if (k.escaped) k.escaped = false;
      else if (c === BACKSLASH) k.escaped = true;
      else if (c === QUOTE) {
        k.inString = false;
        if (k.depth === 0) return "after";
      }
      return undefined;
    }
    if (k.scalar) return isDelimiter(c) ? "before" : undefined;
    if (c === QUOTE) k.inString = true;
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) k.depth++;
    else if ((c === CLOSE_ARRAY || c === CLOSE_OBJECT) && --k.depth === 0) return "after";
    return undefined;
  }

  private close(capture: Capture, last: Buffer, found: FramedElement[]): void {
    capture.parts.push(last);
    capture.size += last.length;
    this.checkSize(capture);
    this.capture = undefined;
    const top = this.stack.at(-1)!;
    const value: FramedValue = { parts: capture.parts, size: capture.size, start: capture.start };
    if (top.type === "list") {
      found.push({ value, list: top.list, index: top.index++ });
      top.expect = "next";
    } else if (top.expect === "keyText") {
      top.key = this.parse(value) as string;
      top.expect = "colon";
    } else {
      assign(this.name, top.target, top.key, this.parse(value));
      top.expect = "next";
    }
  }

  private structure(c: number, i: number): void {
    if (this.done) throw this.invalid("unexpected text after the end of the report");
    const top = this.stack.at(-1);
    if (!top) return this.start(c);
    if (top.type === "list") {
      if (top.expect === "next") {
        if (c === COMMA) top.expect = "value";
        else if (c === CLOSE_ARRAY) this.pop();
        else throw this.invalid("a comma or ] expected");
      } else if (c === CLOSE_ARRAY && top.expect === "first") this.pop();
      else if (c === CLOSE_ARRAY || c === COMMA) throw this.invalid("a value expected");
      else this.startCapture(c, i);
      return;
    }
    switch (top.expect) {
      case "first":
      case "key":
        if (c === QUOTE) {
          top.expect = "keyText";
          this.startCapture(c, i);
        } else if (c === CLOSE_OBJECT && top.expect === "first") this.pop();
        else throw this.invalid("property name expected");
        return;
      case "colon":
        if (c !== COLON) throw this.invalid("colon expected");
        top.expect = "value";
        return;
      case "next":
        if (c === COMMA) top.expect = "key";
        else if (c === CLOSE_OBJECT) this.pop();
        else throw this.invalid("a comma or } expected");
        return;
      default:
        return this.objectValue(top, c, i);
    }
  }

  /** The report's first character: the top-level list, or the object holding the lists. */
  private start(c: number): void {
    this.started = true;
    const list = this.listAt([]);
    if (c === OPEN_ARRAY && list >= 0) {
      this.root = [];
      this.stack.push({ type: "list", list, index: 0, expect: "first" });
    } else if (c === OPEN_OBJECT && this.lists.some((l) => l.length > 0)) {
      const target = {};
      this.root = target;
      this.stack.push({ type: "object", path: [], target, key: "", expect: "first" });
    } else if (VALUE_START.test(String.fromCharCode(c))) {
      throw new ReportError(this.name, this.notReport);
    } else throw this.invalid("invalid symbol");
  }

  /** A value in an object on the way: a list, another object on the way, or a value read whole. */
  private objectValue(top: ObjectFrame, c: number, i: number): void {
    if (c === COMMA || c === CLOSE_OBJECT || c === CLOSE_ARRAY || c === COLON) {
      throw this.invalid("a value expected");
    }
    const path = [...top.path, top.key];
    const list = this.listAt(path);
    const onTheWay = this.lists.some(
      (l) => l.length > path.length && path.every((key, n) => l[n] === key),
    );
    if (c === OPEN_ARRAY && list >= 0) {
      top.expect = "next";
      assign(this.name, top.target, top.key, []);
      this.stack.push({ type: "list", list, index: 0, expect: "first" });
    } else if (c === OPEN_OBJECT && onTheWay) {
      top.expect = "next";
      const target = {};
      assign(this.name, top.target, top.key, target);
      this.stack.push({ type: "object", path, target, key: "", expect: "first" });
    } else this.startCapture(c, i);
  }

  private listAt(path: readonly string[]): number {
    return this.lists.findIndex(
      (l) => l.length === path.length && l.every((key, n) => path[n] === key),
    );
  }

  private startCapture(c: number, i: number): void {
    const open = c === OPEN_ARRAY || c === OPEN_OBJECT;
    this.capture = {
      parts: [],
      size: 0,
      start: { line: this.line, column: this.column },
      depth: open ? 1 : 0,
      inString: c === QUOTE,
      escaped: false,
      scalar: !open && c !== QUOTE,
      from: i,
    };
  }

  private pop(): void {
    this.stack.pop();
    if (this.stack.length === 0) this.done = true;
  }

  private invalid(what: string): ReportError {
    return new ReportError(this.name, `invalid JSON: ${what}`, {
      line: this.line,
      column: this.column,
    });
  }
}

/** Sets a key as JSON.parse would, refusing what parseJsonText refuses. */
function assign(name: string, target: Record<string, unknown>, key: string, value: unknown): void {
  const prototype =
    key === "constructor" && value !== null && typeof value === "object" && "prototype" in value;
  if (key === "__proto__" || prototype) {
    throw new ReportError(name, "JSON with __proto__ or constructor.prototype keys is refused");
  }
  target[key] = value;
}
