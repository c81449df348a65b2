import type { AttachmentInput, RawStatus } from "@assay/core";
import { resolveUploadPath } from "./json-report.js";
import { ListedTotals, totalsWarning, type Totals } from "./report-totals.js";
import {
  declaredTotals,
  readDefinitions,
  type Definition,
  type TrxDefinitions,
} from "./trx-definitions.js";
import {
  ReportError,
  type ParsedResult,
  type ReportFile,
  type ResultParser,
  type UploadFiles,
} from "./types.js";
import { rootOf, streamXml, textField, type Attributes, type XmlReader } from "./xml-stream.js";

/*
 * Visual Studio's TRX (`dotnet test --logger trx`, vstest.console /logger:trx, mstest.exe), as
 * MSTest, xUnit.net and NUnit adapters write it: one <UnitTestResult> per test, a data-driven
 * MSTest method's rows as <InnerResults> (each row a test of its own, the aggregate left out).
 * The class and categories of a test are in <TestDefinitions>, which dotnet writes after the
 * results: they are read first (trx-definitions.ts), then the results are yielded.
 */

const ROOT = "TestRun";

/** Outcomes (vstest's TestOutcome) as Assay's statuses; an unknown one is read as failed. */
const OUTCOMES: Record<string, RawStatus> = {
  Passed: "passed",
  PassedButRunAborted: "passed",
  Completed: "passed",
  Warning: "passed",
  Failed: "failed",
  Error: "failed",
  Timeout: "failed",
  Aborted: "failed",
  Disconnected: "failed",
  NotExecuted: "skipped",
  Inconclusive: "skipped",
  NotRunnable: "skipped",
  Pending: "skipped",
  InProgress: "skipped",
};
/** Outcomes that mean the test could not run to a verdict, not that an assertion failed. */
const ERRORS = new Set(["Error", "Timeout", "Aborted", "Disconnected"]);

export function detectTrx(head: string, _fileName: string): boolean {
  return rootOf(head) === ROOT;
}

/** "00:00:01.5000000" (hh:mm:ss.fffffff) in milliseconds. */
function durationMs(value: string | undefined): number {
  const match = /^(\d+):(\d{2}):(\d{2}(?:\.\d+)?)$/.exec(value ?? "");
  if (!match) return 0;
  const ms = ((Number(match[1]) * 60 + Number(match[2])) * 60 + Number(match[3])) * 1000;
  return Math.round(ms * 1000) / 1000;
}

function isoOf(value: string | undefined): string | undefined {
  const ms = value ? Date.parse(value) : Number.NaN;
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

const baseName = (path: string) => path.replace(/\\/g, "/").split("/").pop() || path;

interface Pending {
  attributes: Attributes;
  hasInner: boolean;
  stdout?: string;
  stderr?: string;
  message?: string;
  stack?: string;
  files: string[];
}

/** Second reading: the results, each as its <UnitTestResult> closes. */
class ResultReader implements XmlReader<ParsedResult> {
  readonly textOf = new Set(["StdOut", "StdErr", "Message", "StackTrace"]);
  readonly ready: ParsedResult[] = [];
  readonly listed = new ListedTotals();
  declared: Totals = {};
  finished = false;
  private readonly stack: Pending[] = [];
  private inSummary = false;

  constructor(
    private readonly file: ReportFile,
    private readonly files: UploadFiles,
    private readonly definitions: TrxDefinitions,
    /** The rest of the file (definitions, counters) was read already: stop after the results. */
    private readonly resultsOnly: boolean,
  ) {}

  root(name: string, where: { line?: number; column?: number }): void {
    if (name !== ROOT) {
      throw new ReportError(
        this.file.name,
        `not a TRX report: the root element is <${name}>, expected <TestRun>`,
        where,
      );
    }
  }

  open(name: string, a: Attributes): void {
    if (name === "UnitTestResult" || name === "TestResultAggregation") {
      const parent = this.stack.at(-1);
      if (parent) parent.hasInner = true;
      this.stack.push({ attributes: a, hasInner: false, files: [] });
    } else if (name === "ResultSummary") this.inSummary = true;
    else if (name === "Counters" && this.inSummary) this.declared = declaredTotals(a);
    else if (name === "ResultFile" && a.path) this.stack.at(-1)?.files.push(a.path);
  }

  close(name: string, text: string): void {
    const current = this.stack.at(-1);
    if (name === "ResultSummary") this.inSummary = false;
    else if (name === "Results" && this.resultsOnly) this.finished = true;
    if (!current) return;
    if (name === "StdOut") current.stdout = textField(text);
    else if (name === "StdErr") current.stderr = textField(text);
    else if (name === "Message") current.message = textField(text);
    else if (name === "StackTrace") current.stack = textField(text);
    else if (name === "UnitTestResult" || name === "TestResultAggregation") {
      this.stack.pop();
      // A data-driven aggregate: its rows are the tests.
      if (!current.hasInner) this.ready.push(this.toResult(current));
    }
  }

  private toResult(pending: Pending): ParsedResult {
    const a = pending.attributes;
    const outcome = a.outcome ?? "";
    const status = OUTCOMES[outcome] ?? "failed";
    this.listed.add(status);
    const shape = a.testId === undefined ? undefined : this.definitions.byId.get(a.testId);
    const definition = shape === undefined ? undefined : this.definitions.shapes[shape];
    const dir = a.relativeResultsDirectory;
    const attachments: AttachmentInput[] = pending.files.map((path) => ({
      name: baseName(path),
      path: resolveUploadPath(this.file.name, dir ? `In/${dir}/${path}` : path, this.files),
    }));
    const passed = status === "passed";
    return {
      name: a.testName || a.testId || "(unnamed test)",
      suite_path: definition?.className ? [definition.className] : [],
      ...(definition?.storage && { file: definition.storage }),
      status,
      attempt: 0,
      ...(status === "failed" && ERRORS.has(outcome) && { failure_type: "error" as const }),
      duration_ms: durationMs(a.duration),
      start_time: isoOf(a.startTime),
      end_time: isoOf(a.endTime),
      ...(!passed && pending.message && { error_message: pending.message }),
      ...(!passed && pending.stack && { error_stack: pending.stack }),
      ...(pending.stdout && { console_log: pending.stdout }),
      ...(pending.stderr && { console_errors: pending.stderr }),
      tags: [...(definition?.tags ?? [])],
      ...propertiesOf(definition, outcome),
      ...(attachments.length && { attachments }),
    };
  }
}

/** The owner a definition names, and an outcome Assay does not know (read as failed). */
function propertiesOf(definition: Definition | undefined, outcome: string) {
  const properties: Record<string, string> = {};
  if (definition?.owner) properties.owner = definition.owner;
  if (outcome && !(outcome in OUTCOMES)) properties.outcome = outcome;
  return Object.keys(properties).length ? { properties } : {};
}

/**
 * Parses a TRX report: one result per test result (a data-driven row included), its class as
 * the suite, categories as tags, the error's message and stack, StdOut/StdErr and result files
 * (under In/<execution>/, matched against the upload's files) as attachments.
 */
export const parseTrx: ResultParser = async function* (file, files, options = {}) {
  const definitions = await readDefinitions(file);
  const results = new ResultReader(file, files, definitions, !!definitions.declared);
  for await (const result of streamXml(file, results, "<TestRun>")) yield result;
  const declared = definitions.declared ?? results.declared;
  const warning = totalsWarning(file.name, declared, results.listed, "test results");
  if (warning) options.warn?.(warning);
};
