import type { RawStatus } from "@assay/core";
import { countOf, ListedTotals, totalsWarning, type Totals } from "./report-totals.js";
import { ReportError, type ParsedResult, type ResultParser } from "./types.js";
import {
  rootOf,
  secondsToMs,
  streamXml,
  textField,
  type Attributes,
  type XmlReader,
} from "./xml-stream.js";

/*
 * xUnit.net's XML (v2 and v3: `xunit.console --xml`, `dotnet test -- xUnit.ReportXml`): one
 * <test> per test, a theory's rows each one of their own, in <collection>s of <assembly>s. The
 * test's class is the suite and the assembly the file; traits become tags ("Category" ones by
 * their value, others as name=value). A failure outside any test (an <error>: a fixture's
 * cleanup, a collection's setup) is a failed result of its own, named after what failed, so the
 * run does not look green.
 */

const ROOTS = new Set(["assemblies", "assembly"]);

const RESULTS: Record<string, RawStatus> = {
  Pass: "passed",
  Fail: "failed",
  Skip: "skipped",
  NotRun: "skipped",
};

export function detectXunit(head: string, _fileName: string): boolean {
  const root = rootOf(head);
  return root !== undefined && ROOTS.has(root);
}

interface Test {
  attributes: Attributes;
  /** An <error> outside any test rather than a <test>. */
  outside: boolean;
  tags: string[];
  exception?: string;
  message?: string;
  stack?: string;
  output?: string;
  reason?: string;
}

const baseName = (path: string) => path.replace(/\\/g, "/").split("/").pop() || path;

function traitTag(name: string, value: string): string {
  return /^categor(y|ies)$/i.test(name) ? value : `${name}=${value}`;
}

class XunitReader implements XmlReader<ParsedResult> {
  readonly textOf = new Set(["message", "stack-trace", "output", "reason"]);
  readonly ready: ParsedResult[] = [];
  readonly listed = new ListedTotals();
  private readonly sums = { tests: 0, passed: 0, failed: 0, skipped: 0 };
  private sawTotals = false;
  private assembly: string | undefined;
  private current: Test | undefined;

  constructor(private readonly fileName: string) {}

  get declared(): Totals {
    return this.sawTotals ? this.sums : {};
  }

  root(name: string, where: { line?: number; column?: number }): void {
    if (!ROOTS.has(name)) {
      throw new ReportError(
        this.fileName,
        `not an xUnit.net XML report: the root element is <${name}>, expected <assemblies>`,
        where,
      );
    }
  }

  open(name: string, a: Attributes): void {
    if (name === "assembly") {
      this.assembly = a.name ? baseName(a.name) : undefined;
      this.addTotals(a);
    } else if (name === "test" || name === "error") {
      this.current = { attributes: a, outside: name === "error", tags: [] };
    } else if (name === "trait" && this.current && a.name) {
      this.current.tags.push(traitTag(a.name, a.value ?? ""));
    } else if (name === "failure" && this.current) {
      this.current.exception = a["exception-type"];
    }
  }

  /** Errors outside tests count as failed results here, so the totals include them. */
  private addTotals(a: Attributes): void {
    const total = countOf(a.total);
    if (total === undefined) return;
    const errors = countOf(a.errors) ?? 0;
    this.sawTotals = true;
    this.sums.tests += total + errors;
    this.sums.passed += countOf(a.passed) ?? 0;
    this.sums.failed += (countOf(a.failed) ?? 0) + errors;
    this.sums.skipped += (countOf(a.skipped) ?? 0) + (countOf(a["not-run"]) ?? 0);
  }

  close(name: string, text: string): void {
    const test = this.current;
    if (!test) return;
    if (name === "message") test.message = textField(text);
    else if (name === "stack-trace") test.stack = textField(text);
    else if (name === "output") test.output = textField(text);
    else if (name === "reason") test.reason = textField(text);
    else if (name === "test" || name === "error") {
      this.current = undefined;
      this.ready.push(this.toResult(test));
    }
  }

  private toResult(test: Test): ParsedResult {
    const a = test.attributes;
    const status = test.outside ? "failed" : (RESULTS[a.result ?? ""] ?? "failed");
    this.listed.add(status);
    // An error outside tests names what failed (a class, a collection) and how (its type).
    const type = (test.outside ? a.name : a.type) ?? "";
    const fullName = test.outside
      ? `[${a.type ?? "error"}]`
      : a.name || `${type}.${a.method ?? ""}`;
    // xUnit names a test by class and method: the class is its suite.
    const name =
      type && fullName.startsWith(`${type}.`) ? fullName.slice(type.length + 1) : fullName;
    const message = status === "skipped" ? test.reason : test.message;
    return {
      name,
      suite_path: type ? [type] : [],
      ...(this.assembly && { file: this.assembly }),
      status,
      attempt: 0,
      ...(test.outside && { failure_type: "error" as const }),
      duration_ms: secondsToMs(a.time),
      ...(status !== "passed" && message && { error_message: message }),
      ...(status === "failed" && test.exception && { error_name: test.exception }),
      ...(status === "failed" && test.stack && { error_stack: test.stack }),
      ...(test.output && { console_log: test.output }),
      tags: test.tags,
      ...(a["source-file"] && {
        properties: { source: `${a["source-file"]}:${a["source-line"] ?? ""}`.replace(/:$/, "") },
      }),
    };
  }
}

/** Parses an xUnit.net v2/v3 XML report, one result per <test> (and per <error>) as it closes. */
export const parseXunit: ResultParser = async function* (file, _files, options = {}) {
  const reader = new XunitReader(file.name);
  for await (const result of streamXml(file, reader, "<assemblies>")) yield result;
  const warning = totalsWarning(file.name, reader.declared, reader.listed, "tests");
  if (warning) options.warn?.(warning);
};
