import type { RawStatus, StepInput } from "@assay/core";
import { countOf, ListedTotals, totalsWarning, type Totals } from "./report-totals.js";
import { ReportError, type ParsedResult, type ResultParser } from "./types.js";
import { rootOf, streamXml, textField, type Attributes, type XmlReader } from "./xml-stream.js";

/*
 * TestNG's testng-results.xml: <suite>s of <test>s of <class>es of <test-method>s. A test method
 * is a test in the suite path [suite, test, class]; a data-provider row is a test of its own,
 * named with its parameters (rows with the same parameters stay apart). Configuration methods
 * (is-config="true": @BeforeMethod, @AfterClass, ...) become steps: those since the previous test
 * method are before steps of the next one, those after a class's last test its after steps
 * (TestNG does not write which kind a configuration method is). Groups are tags, Reporter.log
 * lines the console log. TestNG 7 marks an attempt that was retried with retried="true": it is
 * an earlier (failed) attempt of the entry of the class with the same method and parameters.
 * Results leave as their class closes (a class's tests are held until then).
 */

const ROOT = "testng-results";

const STATUS: Record<string, RawStatus> = { PASS: "passed", FAIL: "failed", SKIP: "skipped" };

export function detectTestng(head: string, _fileName: string): boolean {
  return rootOf(head) === ROOT;
}

interface Chain {
  key: string;
  /** The attempt that was not retried (the test's outcome) is in. */
  final: boolean;
  members: { result: ParsedResult; retried: boolean }[];
}

interface Method {
  attributes: Attributes;
  params: string[];
  output: string[];
  exception?: string;
  message?: string;
  stack?: string;
}

class TestngReader implements XmlReader<ParsedResult> {
  readonly textOf = new Set(["value", "message", "full-stacktrace", "line"]);
  readonly ready: ParsedResult[] = [];
  readonly listed = new ListedTotals();
  declared: Totals = {};
  private suite = "";
  private test = "";
  private className = "";
  /** Groups of the suite's methods, by class and method name. */
  private groups = new Map<string, string[]>();
  private group: string | undefined;
  private current: Method | undefined;
  private configs: StepInput[] = [];
  /** The class's tests, held until it closes. */
  private held: ParsedResult[] = [];
  /** The class's attempts of each name: retried ones and the one that ended them. */
  private chains = new Map<string, Chain>();
  private entries = 0;

  constructor(private readonly fileName: string) {}

  root(name: string, where: { line?: number; column?: number }): void {
    if (name !== ROOT) {
      throw new ReportError(
        this.fileName,
        `not a TestNG report: the root element is <${name}>, expected <testng-results>`,
        where,
      );
    }
  }

  open(name: string, a: Attributes): void {
    if (name === ROOT) {
      this.declared = {
        tests: countOf(a.total),
        passed: countOf(a.passed),
        failed: countOf(a.failed),
        skipped: countOf(a.skipped),
      };
    } else if (name === "suite") {
      this.suite = a.name ?? "";
      this.groups = new Map();
    } else if (name === "group") this.group = a.name;
    else if (name === "method" && this.group) {
      const key = `${a.class ?? ""}#${a.name ?? ""}`;
      const groups = this.groups.get(key) ?? [];
      groups.push(this.group);
      this.groups.set(key, groups);
    } else if (name === "test") this.test = a.name ?? "";
    else if (name === "class") this.className = a.name ?? "";
    else if (name === "test-method") this.current = { attributes: a, params: [], output: [] };
    else if (name === "exception" && this.current) this.current.exception = a.class;
  }

  close(name: string, text: string): void {
    const method = this.current;
    if (name === "group") this.group = undefined;
    else if (name === "class") this.endClass();
    if (!method) return;
    if (name === "value") method.params.push(text.trim());
    else if (name === "message") method.message = textField(text);
    else if (name === "full-stacktrace") method.stack = textField(text);
    else if (name === "line") method.output.push(text.trim());
    else if (name === "test-method") {
      this.current = undefined;
      if (method.attributes["is-config"] === "true") this.configs.push(configStep(method));
      else this.addTest(method);
    }
  }

  private addTest(method: Method): void {
    const a = method.attributes;
    const retried = a.retried === "true";
    const status = retried ? "failed" : (STATUS[a.status ?? ""] ?? "failed");
    // TestNG counts a retried attempt as skipped.
    this.listed.add(retried ? "skipped" : status);
    const methodName = a.name || "(unnamed method)";
    const name = method.params.length ? `${methodName}(${method.params.join(", ")})` : methodName;
    // TestNG sorts a class's methods by start time: a retried attempt may come before or after
    // the attempt that ended it. Each joins the open chain of its name.
    let chain = this.chains.get(name);
    if (!chain || (!retried && chain.final)) {
      chain = { key: `entry ${this.entries++}`, final: false, members: [] };
      this.chains.set(name, chain);
    }
    if (!retried) chain.final = true;
    const output = method.output.filter(Boolean).join("\n");
    const steps = this.configs;
    this.configs = [];
    const tags = this.groups.get(`${this.className}#${methodName}`) ?? [];
    const message = status === "passed" ? undefined : method.message;
    const result: ParsedResult = {
      name,
      suite_path: [this.suite, this.test, this.className].filter(Boolean),
      status,
      attempt: 0,
      testKey: chain.key,
      duration_ms: Math.max(0, Number(a["duration-ms"]) || 0),
      start_time: isoOf(a["started-at"]),
      end_time: isoOf(a["finished-at"]),
      ...(a.description && { description: a.description }),
      ...(message && { error_message: message }),
      ...(status !== "passed" && method.exception && { error_name: method.exception }),
      ...(status === "failed" && method.stack && { error_stack: method.stack }),
      ...(output && { console_log: output }),
      tags,
      steps,
      ...(a["data-provider"] && { properties: { "data-provider": a["data-provider"] } }),
    };
    chain.members.push({ result, retried });
    this.held.push(result);
  }

  /**
   * The class's tests leave when it closes: its after steps and the attempts' numbers (retried
   * ones first, in order, then the one that ended the chain) are known only then.
   */
  private endClass(): void {
    const last = this.held.at(-1);
    if (last) {
      last.steps = [...(last.steps ?? []), ...this.configs.map((c) => ({ ...c, before: false }))];
    }
    for (const chain of this.chains.values()) {
      const ordered = [
        ...chain.members.filter((m) => m.retried),
        ...chain.members.filter((m) => !m.retried),
      ];
      ordered.forEach((member, attempt) => (member.result.attempt = attempt));
    }
    for (const result of this.held) this.ready.push(result);
    this.held = [];
    this.configs = [];
    this.chains = new Map();
  }
}

function configStep(method: Method): StepInput {
  const a = method.attributes;
  const status = STATUS[a.status ?? ""];
  return {
    action: a.name || "(configuration method)",
    passed: status === "passed" ? true : status === "failed" ? false : null,
    duration_ms: Math.max(0, Number(a["duration-ms"]) || 0),
    before: true,
  };
}

function isoOf(value: string | undefined): string | undefined {
  const ms = value ? Date.parse(value) : Number.NaN;
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

/** Parses a TestNG testng-results.xml, one result per test method as its class is read. */
export const parseTestng: ResultParser = async function* (file, _files, options = {}) {
  const reader = new TestngReader(file.name);
  for await (const result of streamXml(file, reader, "<testng-results>")) yield result;
  const warning = totalsWarning(file.name, reader.declared, reader.listed, "test methods");
  if (warning) options.warn?.(warning);
};
