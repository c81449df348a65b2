import type { ResultInput } from "@assay/core";
import { RERUN_KINDS, type CaseRecord, type Rerun, type RerunKind } from "./junit-case.js";
import type { Property } from "./junit-fields.js";
import { SuiteStack } from "./junit-suites.js";
import { ReportError, type ReportLocation } from "./types.js";

/*
 * Turns the SAX events of a JUnit report into testcases and suites: which element means what
 * where, and the text each one holds. What becomes of them is junit-suites.ts and junit-case.ts.
 */

/** Deeper than any real report; bounds the element stack a hostile file can build. */
export const MAX_DEPTH = 256;

/** What to do when an element closes; testcases and suites, the common ones, share theirs. */
type Close = () => void;

export class JunitBuilder {
  /** Names of the open elements, and what to do when each closes (same indexes). */
  private readonly names: string[] = [];
  private readonly closers: (Close | undefined)[] = [];
  /** Text of the elements being read, innermost last. */
  private readonly captures: string[] = [];
  private readonly suites: SuiteStack;
  private record: CaseRecord | undefined;
  private rerun: Rerun | undefined;
  /** Names given to testcases that had none, numbered per suite or file they are named after. */
  readonly unnamed: string[] = [];
  private readonly unnamedIn = new Map<string, number>();

  /**
   * @param capturing told when the builder starts (true) and stops (false) wanting text: most
   *   text of a report is whitespace between elements, which the SAX parser need not hand over.
   */
  constructor(
    private readonly fileName: string,
    private readonly where: () => ReportLocation,
    emit: (result: ResultInput) => void,
    private readonly capturing: (wanted: boolean) => void = () => undefined,
    retries = false,
  ) {
    this.suites = new SuiteStack(emit, retries);
  }

  get header() {
    return this.suites.header;
  }

  get listed() {
    return this.suites.listed;
  }

  open(name: string, attributes: Record<string, string>): void {
    const depth = this.names.length;
    if (depth >= MAX_DEPTH) {
      throw this.error(`elements are nested deeper than ${MAX_DEPTH} levels`);
    }
    if (depth === 0 && name !== "testsuites" && name !== "testsuite") {
      throw this.error(
        `expected a JUnit XML report with <testsuites> or <testsuite> as its root element, found <${name}>`,
      );
    }
    const close = this.handle(name, attributes, this.names[depth - 1]);
    this.names.push(name);
    this.closers.push(close);
  }

  close(): void {
    this.names.pop();
    this.closers.pop()?.();
  }

  text(text: string): void {
    const top = this.captures.length - 1;
    if (top >= 0) this.captures[top] += text;
  }

  private error(message: string): ReportError {
    return new ReportError(this.fileName, message, this.where());
  }

  private readonly closeSuite: Close = () => this.suites.close();

  private readonly closeCase: Close = () => {
    const record = this.record;
    this.record = undefined;
    if (record) this.suites.addCase(record);
  };

  /** Starts what an element means in its place; returns what to do when it closes. */
  private handle(name: string, attrs: Record<string, string>, parent: string | undefined) {
    const record = this.record;
    const frame = this.suites.top;
    if (name === "testsuites" || name === "testsuite") {
      if (record) return undefined;
      this.suites.open(name, attrs);
      return this.closeSuite;
    }
    if (name === "testcase") return record || !frame ? undefined : this.openCase(attrs);
    if (name === "property" && parent === "properties") {
      if (record) return this.openProperty(attrs, (p) => record.properties.push(p));
      return frame ? this.openProperty(attrs, (p) => this.suites.addProperty(frame, p)) : undefined;
    }
    if (name === "system-out" || name === "system-err") return this.openOutput(name, parent);
    if (!record) return undefined;
    if (parent === "testcase" && (name === "failure" || name === "error")) {
      return this.capture((text) => {
        record.outcomes.push({ kind: name, message: attrs.message, type: attrs.type, text });
      });
    }
    if (parent === "testcase" && name === "skipped") {
      return this.capture((text) => (record.skipped = { message: attrs.message, text }));
    }
    if (parent === "testcase" && RERUN_KINDS.has(name)) return this.openRerun(name, attrs, record);
    const rerun = this.rerun;
    if (name === "stackTrace" && rerun && parent === rerun.kind) {
      return this.capture((text) => (rerun.stackTrace += text));
    }
    return undefined;
  }

  private capture(done: (text: string) => void): Close {
    if (this.captures.push("") === 1) this.capturing(true);
    return () => {
      const text = this.captures.pop() ?? "";
      if (this.captures.length === 0) this.capturing(false);
      done(text);
    };
  }

  private openCase(attrs: Record<string, string>): Close {
    const name = attrs.name?.trim() || attrs.classname?.trim() || this.unnamedTest(attrs);
    this.record = {
      name,
      classname: attrs.classname,
      file: attrs.file,
      time: attrs.time,
      timestamp: attrs.timestamp,
      properties: [],
      out: "",
      err: "",
      outcomes: [],
      skipped: undefined,
      reruns: [],
    };
    return this.closeCase;
  }

  /**
   * A name for a testcase with neither a name nor a classname (jest-junit writes one for a test
   * whose title is empty): after its file or suite, so that it is stored with the others.
   */
  private unnamedTest(attrs: Record<string, string>): string {
    const frame = this.suites.top;
    const where = attrs.file?.trim() || frame?.file || frame?.path.at(-1) || this.fileName;
    const n = (this.unnamedIn.get(where) ?? 0) + 1;
    this.unnamedIn.set(where, n);
    const name = `unnamed test ${n} in ${where}`;
    this.unnamed.push(name);
    return name;
  }

  private openProperty(
    attrs: Record<string, string>,
    add: (property: Property) => void,
  ): Close | undefined {
    const name = attrs.name?.trim();
    if (!name) return undefined;
    // Some tools write the value as text (multi-line values); the attribute wins when both exist.
    const value = attrs.value;
    if (value === undefined) return this.capture((text) => add([name, text.trim()]));
    add([name, value]);
    return undefined;
  }

  private openOutput(name: "system-out" | "system-err", parent: string | undefined) {
    const key = name === "system-out" ? "out" : "err";
    const rerun = this.rerun;
    if (rerun && parent === rerun.kind) return this.capture((text) => (rerun[key] += text));
    const record = this.record;
    if (record) {
      if (parent !== "testcase") return undefined;
      return this.capture((text) => (record[key] += record[key] ? `\n${text}` : text));
    }
    const frame = this.suites.top;
    if (!frame || (parent !== "testsuite" && parent !== "testsuites")) return undefined;
    return this.capture((text) => this.suites.addOutput(frame, key, text));
  }

  private openRerun(kind: string, attrs: Record<string, string>, record: CaseRecord): Close {
    const rerun: Rerun = {
      kind: kind as RerunKind,
      message: attrs.message,
      type: attrs.type,
      text: "",
      stackTrace: "",
      out: "",
      err: "",
    };
    this.rerun = rerun;
    const done = this.capture((text) => (rerun.text = text));
    return () => {
      done();
      this.rerun = undefined;
      record.reruns.push(rerun);
    };
  }
}
