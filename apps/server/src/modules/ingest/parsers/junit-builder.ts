import type { ResultInput } from "@assay/core";
import { RERUN_KINDS, type CaseRecord, type Rerun, type RerunKind } from "./junit-case.js";
import { SuiteStack, type Frame } from "./junit-suites.js";
import { ReportError, type ReportLocation } from "./types.js";

/*
 * Turns the SAX events of a JUnit report into testcases and suites: which element means what
 * where, and the text each one holds. What becomes of them is junit-suites.ts and junit-case.ts.
 */

/** Deeper than any real report; bounds the element stack a hostile file can build. */
export const MAX_DEPTH = 256;

interface Element {
  name: string;
  close?: () => void;
}

export class JunitBuilder {
  private readonly elements: Element[] = [];
  private readonly captures: string[][] = [];
  private readonly suites: SuiteStack;
  private record: CaseRecord | undefined;
  private rerun: Rerun | undefined;

  constructor(
    private readonly fileName: string,
    private readonly where: () => ReportLocation,
    emit: (result: ResultInput) => void,
  ) {
    this.suites = new SuiteStack(emit);
  }

  open(name: string, attributes: Record<string, string>): void {
    if (this.elements.length >= MAX_DEPTH) {
      throw this.error(`elements are nested deeper than ${MAX_DEPTH} levels`);
    }
    if (this.elements.length === 0 && name !== "testsuites" && name !== "testsuite") {
      throw this.error(
        `expected a JUnit XML report with <testsuites> or <testsuite> as its root element, found <${name}>`,
      );
    }
    const close = this.handle(name, attributes);
    this.elements.push(close ? { name, close } : { name });
  }

  close(): void {
    this.elements.pop()?.close?.();
  }

  text(text: string): void {
    this.captures[this.captures.length - 1]?.push(text);
  }

  private error(message: string): ReportError {
    return new ReportError(this.fileName, message, this.where());
  }

  /** Starts what an element means in its place; returns what to do when it closes. */
  private handle(name: string, attrs: Record<string, string>): (() => void) | undefined {
    const parent = this.elements[this.elements.length - 1]?.name;
    const record = this.record;
    const frame = this.suites.top;
    if (name === "testsuites" || name === "testsuite") {
      if (record) return undefined;
      this.suites.open(name, attrs);
      return () => this.suites.close();
    }
    if (name === "testcase") return record || !frame ? undefined : this.openCase(attrs);
    if (name === "property" && parent === "properties") {
      const target = record ?? frame;
      return target ? this.openProperty(attrs, target) : undefined;
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

  private capture(done: (text: string) => void): () => void {
    const parts: string[] = [];
    this.captures.push(parts);
    return () => {
      this.captures.pop();
      done(parts.join(""));
    };
  }

  private openCase(attrs: Record<string, string>): () => void {
    const name = attrs.name?.trim() || attrs.classname?.trim();
    if (!name) throw this.error("a <testcase> has neither a name nor a classname attribute");
    const record: CaseRecord = {
      name,
      ...(attrs.classname !== undefined ? { classname: attrs.classname } : {}),
      ...(attrs.file !== undefined ? { file: attrs.file } : {}),
      ...(attrs.time !== undefined ? { time: attrs.time } : {}),
      ...(attrs.timestamp !== undefined ? { timestamp: attrs.timestamp } : {}),
      properties: [],
      out: "",
      err: "",
      outcomes: [],
      reruns: [],
    };
    this.record = record;
    return () => {
      this.record = undefined;
      this.suites.addCase(record);
    };
  }

  private openProperty(
    attrs: Record<string, string>,
    target: CaseRecord | Frame,
  ): (() => void) | undefined {
    const name = attrs.name?.trim();
    if (!name) return undefined;
    const add = (value: string) => {
      target.properties.push([name, value]);
      if ("held" in target) target.derived = undefined;
    };
    // Some tools write the value as text (multi-line values); the attribute wins when both exist.
    const value = attrs.value;
    if (value === undefined) return this.capture((text) => add(text.trim()));
    add(value);
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
    return this.capture((text) => {
      frame[key] += frame[key] ? `\n${text}` : text;
      frame.derived = undefined;
    });
  }

  private openRerun(kind: string, attrs: Record<string, string>, record: CaseRecord) {
    const rerun: Rerun = {
      kind: kind as RerunKind,
      ...(attrs.message !== undefined ? { message: attrs.message } : {}),
      ...(attrs.type !== undefined ? { type: attrs.type } : {}),
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
