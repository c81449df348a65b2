import type { Attempt } from "./demo-outcomes.js";
import type { PlannedResult, PlannedRun } from "./demo-run-types.js";
import { screenshotBase64 } from "./demo-png.js";
import { apiLog, apiStack } from "./demo-live.js";
import { failingStep, mainSteps, uiStack } from "./demo-ui-steps.js";
import { DEMO_CHROME_VERSION, DEMO_PLATFORM } from "./demo-vocabulary.js";

/*
 * A JUnit XML report in Maven Surefire's dialect, with its rerun elements: a test that passed on
 * a retry holds <flakyFailure>, one that failed twice <failure> then <rerunFailure>. UI steps go
 * in `step[status]` properties and screenshots are `[[ATTACHMENT|path]]` lines in system-out,
 * uploaded next to the report.
 */

export interface ReportFilePart {
  name: string;
  content: string | Buffer;
}

const escapeXml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const cdata = (text: string) => `<![CDATA[${text.replace(/]]>/g, "]]]]><![CDATA[>")}]]>`;
const seconds = (ms: number) => (ms / 1000).toFixed(3);
const property = (name: string, value: string) =>
  `<property name="${escapeXml(name)}" value="${escapeXml(value)}"/>`;

function stackOf(result: PlannedResult, attempt: Attempt): string {
  const message = attempt.message ?? "failed";
  return result.test.suite === "api"
    ? apiStack(result.test, message)
    : uiStack(result.test, message);
}

function outcomeElements(result: PlannedResult): string {
  const [first, ...rest] = result.attempts;
  const final = result.attempts[result.attempts.length - 1]!;
  const element = (name: string, attempt: Attempt, nested: boolean) => {
    const type = attempt.message?.startsWith("Pending reason") ? "PendingError" : "AssertionError";
    const open = `<${name} message="${escapeXml(attempt.message ?? "")}" type="${type}">`;
    const body = nested
      ? `<stackTrace>${cdata(stackOf(result, attempt))}</stackTrace>`
      : cdata(stackOf(result, attempt));
    return `${open}${body}</${name}>`;
  };
  if (final.passed) {
    return result.attempts
      .filter((a) => !a.passed)
      .map((a) => element("flakyFailure", a, true))
      .join("");
  }
  return [
    element("failure", first!, false),
    ...rest.map((a) => element("rerunFailure", a, true)),
  ].join("");
}

function uiCase(
  result: PlannedResult,
  files: ReportFilePart[],
): { properties: string; out: string } {
  const { test } = result;
  const final = result.attempts[result.attempts.length - 1]!;
  const failAt = final.passed ? -1 : failingStep(test);
  const properties: string[] = [];
  const out: string[] = [];
  mainSteps(test).forEach((step, i) => {
    const status = failAt < 0 || i < failAt ? "passed" : i === failAt ? "failed" : "skipped";
    properties.push(property(`step[${status}]`, `${step.keyword}${step.text}`));
    const shots: [string, boolean][] = [];
    if (result.stepScreenshots && status !== "skipped") shots.push([`step-${i + 1}`, false]);
    if (status === "failed" && result.errorScreenshot) shots.push(["error", true]);
    for (const [label, error] of shots) {
      const name = `screenshots/TC${test.id}-${label}.png`;
      files.push({ name, content: Buffer.from(screenshotBase64("nextGen", i, error), "base64") });
      out.push(`[[ATTACHMENT|${name}]]`);
    }
  });
  return { properties: properties.join(""), out: out.join("\n") };
}

function testcase(run: PlannedRun, result: PlannedResult, files: ReportFilePart[]): string {
  const { test } = result;
  const ms = result.attempts.reduce((sum, a) => sum + a.durationMs, 0);
  const ui = test.suite === "api" ? undefined : uiCase(result, files);
  const out = ui ? ui.out : apiLog(run, result).join("\n");
  const attributes = [
    `name="${escapeXml(`TC${test.id} ${test.scenario}`)}"`,
    `file="${escapeXml(test.file)}"`,
    `time="${seconds(ms)}"`,
    `timestamp="${result.start.toISOString()}"`,
  ].join(" ");
  return [
    `<testcase ${attributes}>`,
    ui?.properties ? `<properties>${ui.properties}</properties>` : "",
    outcomeElements(result),
    out ? `<system-out>${cdata(out)}</system-out>` : "",
    "</testcase>",
  ].join("");
}

function suiteProperties(run: PlannedRun): string {
  const common = [
    property("executor", run.executor),
    property("branch", run.branch),
    property("commit", run.commit),
  ];
  const specific =
    run.family === "backend"
      ? [property("baseurl", run.baseurl ?? "")]
      : [
          property("nora_site", run.site ?? ""),
          property("chrome_version", DEMO_CHROME_VERSION),
          property("platform", DEMO_PLATFORM),
          property("version", `7.4.${run.start.getUTCDate()}`),
        ];
  return `<properties>${[...common, ...specific].join("")}</properties>`;
}

/** The report of a planned run and the screenshot files it refers to. */
export function junitReport(run: PlannedRun): { xml: string; files: ReportFilePart[] } {
  const files: ReportFilePart[] = [];
  const bySuite = new Map<string, PlannedResult[]>();
  for (const result of run.results) {
    const list = bySuite.get(result.test.area.feature) ?? [];
    list.push(result);
    bySuite.set(result.test.area.feature, list);
  }
  const suites = [...bySuite].map(([name, results]) => {
    const failures = results.filter((r) => !r.attempts[r.attempts.length - 1]!.passed).length;
    const time = results.reduce(
      (sum, r) => sum + r.attempts.reduce((s, a) => s + a.durationMs, 0),
      0,
    );
    const cases = results.map((r) => testcase(run, r, files)).join("\n");
    return (
      `<testsuite name="${escapeXml(name)}" tests="${results.length}" failures="${failures}" ` +
      `errors="0" skipped="0" time="${seconds(time)}" timestamp="${results[0]!.start.toISOString()}">` +
      `${suiteProperties(run)}\n${cases}\n</testsuite>`
    );
  });
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${escapeXml(run.name)}">\n${suites.join("\n")}\n</testsuites>\n`;
  return { xml, files };
}
