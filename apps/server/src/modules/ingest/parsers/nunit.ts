import type { AttachmentInput, RawStatus } from "@assay/core";
import { resolveUploadPath } from "./json-report.js";
import { countOf, ListedTotals, totalsWarning, type Totals } from "./report-totals.js";
import { ReportError, type ParsedResult, type ResultParser, type UploadFiles } from "./types.js";
import {
  rootOf,
  secondsToMs,
  streamXml,
  textField,
  type Attributes,
  type XmlReader,
} from "./xml-stream.js";

/*
 * NUnit's XML results: NUnit 3's <test-run> (nunit3-console, `dotnet test --logger nunit`) and
 * NUnit 2's <test-results> (nunit-console 2.x). Every <test-case> is a test, a parameterised
 * method's cases each one of their own; its class is the suite; categories (a fixture's too)
 * are tags, other properties stay properties; reasons of skipped/ignored tests and failure
 * messages are the error message; NUnit 3's output and attachments are kept.
 */

const ROOTS = new Set(["test-run", "test-results"]);

/** Results as Assay's statuses: NUnit 3's result attribute and NUnit 2's. */
const RESULTS: Record<string, RawStatus> = {
  Passed: "passed",
  Success: "passed",
  Warning: "passed",
  Failed: "failed",
  Failure: "failed",
  Error: "failed",
  Cancelled: "failed",
  NotRunnable: "failed",
  Skipped: "skipped",
  Ignored: "skipped",
  Inconclusive: "skipped",
};
/** Results (NUnit 2) and labels (NUnit 3) of a test that broke rather than failed an assertion. */
const ERRORS = new Set(["Error", "Cancelled", "NotRunnable", "Invalid"]);
/** NUnit 2 suite types whose names make up a test's class. */
const CLASS_PARTS = new Set(["Namespace", "TestFixture", "GenericFixture"]);

export function detectNunit(head: string, _fileName: string): boolean {
  const root = rootOf(head);
  return root !== undefined && ROOTS.has(root);
}

interface Suite {
  type: string;
  name: string;
  tags: string[];
}

interface Case {
  attributes: Attributes;
  tags: string[];
  properties: Record<string, string>;
  description?: string;
  message?: string;
  stack?: string;
  output?: string;
  attachments: AttachmentInput[];
  attachment?: { path?: string; description?: string };
}

class NunitReader implements XmlReader<ParsedResult> {
  readonly textOf = new Set(["message", "stack-trace", "output", "filePath", "description"]);
  readonly ready: ParsedResult[] = [];
  readonly listed = new ListedTotals();
  declared: Totals = {};
  private version: 2 | 3 = 3;
  private assembly: string | undefined;
  private readonly suites: Suite[] = [];
  private current: Case | undefined;
  /** Inside <reason> or <failure> of the current case: its <message> is the case's. */
  private inMessage = false;
  private inAssertion = false;

  constructor(
    private readonly fileName: string,
    private readonly files: UploadFiles,
  ) {}

  root(name: string, where: { line?: number; column?: number }): void {
    if (!ROOTS.has(name)) {
      throw new ReportError(
        this.fileName,
        `not an NUnit report: the root element is <${name}>, expected <test-run> (NUnit 3) or <test-results> (NUnit 2)`,
        where,
      );
    }
  }

  open(name: string, a: Attributes): void {
    const test = this.current;
    if (name === "test-run") this.declared = nunit3Totals(a);
    else if (name === "test-results") {
      this.version = 2;
      this.declared = nunit2Totals(a);
    } else if (name === "test-suite") {
      if (a.type === "Assembly") this.assembly ??= baseName(a.name ?? "");
      this.suites.push({ type: a.type ?? "", name: a.name ?? "", tags: [] });
    } else if (name === "test-case") {
      const inherited = this.suites.flatMap((s) => s.tags);
      this.current = {
        attributes: a,
        tags: [...new Set(inherited)],
        properties: {},
        attachments: [],
      };
      if (a.description) this.current.description = a.description;
    } else if (name === "property") this.property(a.name ?? "", a.value ?? "");
    else if (name === "category" && a.name) (test?.tags ?? this.suites.at(-1)?.tags)?.push(a.name);
    else if (!test) return;
    else if (name === "reason" || name === "failure") this.inMessage = true;
    else if (name === "assertions") this.inAssertion = true;
    else if (name === "attachment") test.attachment = {};
  }

  private property(name: string, value: string): void {
    const test = this.current;
    if (name === "Category") (test?.tags ?? this.suites.at(-1)?.tags)?.push(value);
    else if (!test || name.startsWith("_")) return;
    else if (name === "Description") test.description = value;
    else test.properties[name] = value;
  }

  close(name: string, text: string): void {
    const test = this.current;
    if (name === "test-suite") this.suites.pop();
    if (!test) return;
    if (name === "message" && this.inMessage && !this.inAssertion) test.message = textField(text);
    else if (name === "stack-trace" && this.inMessage && !this.inAssertion) {
      test.stack = textField(text);
    } else if (name === "reason" || name === "failure") this.inMessage = false;
    else if (name === "assertions") this.inAssertion = false;
    else if (name === "output") test.output = textField(text);
    else if (name === "filePath" && test.attachment) test.attachment.path = textField(text);
    else if (name === "description" && test.attachment) {
      test.attachment.description = textField(text);
    } else if (name === "attachment" && test.attachment) {
      const { path, description } = test.attachment;
      if (path) {
        test.attachments.push({
          name: baseName(path),
          path: resolveUploadPath(this.fileName, path, this.files),
          ...(description && { description }),
        });
      }
      test.attachment = undefined;
    } else if (name === "test-case") {
      this.current = undefined;
      this.ready.push(this.toResult(test));
    }
  }

  /** The test's class: NUnit 3 says it; NUnit 2 nests it as namespaces and a fixture. */
  private className(a: Attributes): string {
    if (a.classname) return a.classname;
    return this.suites
      .filter((s) => CLASS_PARTS.has(s.type))
      .map((s) => s.name)
      .join(".");
  }

  private toResult(test: Case): ParsedResult {
    const a = test.attributes;
    const result = a.result ?? "";
    // NUnit 2 marks a test that did not run with executed="False" and may leave result out.
    const status = RESULTS[result] ?? (a.executed === "False" ? "skipped" : "failed");
    this.listed.add(status);
    const className = this.className(a);
    const fullName = a.name ?? a.fullname ?? "(unnamed test)";
    // NUnit 2 names a test by its full name: the class is its suite.
    const name =
      this.version === 2 && className && fullName.startsWith(`${className}.`)
        ? fullName.slice(className.length + 1)
        : fullName;
    const error = status === "failed" && (ERRORS.has(result) || ERRORS.has(a.label ?? ""));
    const message = status === "passed" && result !== "Warning" ? undefined : test.message;
    return {
      name: name || fullName,
      suite_path: className ? [className] : [],
      ...(this.assembly && { file: this.assembly }),
      status,
      attempt: 0,
      ...(error && { failure_type: "error" as const }),
      duration_ms: secondsToMs(this.version === 2 ? a.time : a.duration),
      ...(message && { error_message: message }),
      ...(status === "failed" && test.stack && { error_stack: test.stack }),
      ...(test.output && { console_log: test.output }),
      ...(test.description && { description: test.description }),
      tags: [...new Set(test.tags)],
      ...(Object.keys(test.properties).length && { properties: test.properties }),
      ...(test.attachments.length && { attachments: test.attachments }),
    };
  }
}

const baseName = (path: string) => path.replace(/\\/g, "/").split("/").pop() || path;

function nunit3Totals(a: Attributes): Totals {
  const passed = countOf(a.passed);
  const failed = countOf(a.failed);
  const inconclusive = countOf(a.inconclusive);
  const skipped = countOf(a.skipped);
  return {
    tests: countOf(a.total),
    passed: passed === undefined ? undefined : passed + (countOf(a.warnings) ?? 0),
    failed,
    skipped: skipped === undefined ? undefined : skipped + (inconclusive ?? 0),
  };
}

/** NUnit 2's total counts the tests that ran; not-run ones (ignored, skipped, invalid) come on top. */
function nunit2Totals(a: Attributes): Totals {
  const total = countOf(a.total);
  const notRun = countOf(a["not-run"]) ?? 0;
  const invalid = countOf(a.invalid) ?? 0;
  const failed = (countOf(a.failures) ?? 0) + (countOf(a.errors) ?? 0) + invalid;
  return {
    tests: total === undefined ? undefined : total + notRun,
    failed,
    skipped: notRun - invalid + (countOf(a.inconclusive) ?? 0),
  };
}

/** Parses an NUnit 3 or NUnit 2 XML result file, one result per <test-case> as it closes. */
export const parseNunit: ResultParser = async function* (file, files, options = {}) {
  const reader = new NunitReader(file.name, files);
  const roots = "<test-run> (NUnit 3) or <test-results> (NUnit 2)";
  for await (const result of streamXml(file, reader, roots)) yield result;
  const warning = totalsWarning(file.name, reader.declared, reader.listed, "test cases");
  if (warning) options.warn?.(warning);
};
