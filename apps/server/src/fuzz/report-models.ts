import { randomUUID } from "node:crypto";
import type { RawStatus, ReportFormat } from "@assay/core";
import fc from "fast-check";
import type { Counts } from "./parse-outcome.js";
import {
  dartReport,
  goTestReport,
  nunitReport,
  rspecReport,
  testngReport,
  trxReport,
  xunitReport,
} from "./report-models-more.js";

/**
 * A model of a test run (suites of uniquely named tests with a status each) and writers that
 * turn it into each format's report, as the real reporters write them. A parse of the report
 * must give exactly the model's counts.
 */
export interface ModelTest {
  name: string;
  status: RawStatus;
  durationMs: number;
}
export interface ModelSuite {
  name: string;
  tests: ModelTest[];
}
export type Model = ModelSuite[];

/** Names with any printable character (markup, quotes, emoji), never blank or a control. */
const text = fc
  .string({ unit: "grapheme", minLength: 1, maxLength: 24 })
  .filter((s) => s.trim().length > 0 && !/[\p{Cc}\p{Cs}\uFFFE\uFFFF]/u.test(s))
  .map((s) => s.trim());

const modelTest = fc.record({
  name: text,
  status: fc.constantFrom<RawStatus>("passed", "failed", "skipped"),
  durationMs: fc.integer({ min: 0, max: 3_600_000 }),
});

export const model: fc.Arbitrary<Model> = fc.uniqueArray(
  fc.record({
    name: text,
    tests: fc.uniqueArray(modelTest, { selector: (t) => t.name, maxLength: 8 }),
  }),
  { selector: (s) => s.name, minLength: 1, maxLength: 4 },
);

export function modelCounts(suites: Model): Counts {
  const counts: Counts = { passed: 0, failed: 0, skipped: 0, endpoints: 0 };
  for (const suite of suites) for (const test of suite.tests) counts[test.status]++;
  return counts;
}

const xmlEscape = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => `&${{ "&": "amp", "<": "lt", ">": "gt", '"': "quot", "'": "apos" }[c]};`,
  );

/** JUnit dialects: Surefire's one suite per file, jest/mocha's <testsuites>, errors vs failures. */
export type JunitDialect = "testsuites" | "testsuite" | "surefire-errors";

export function junitReport(suites: Model, dialect: JunitDialect): string {
  const suiteXml = (suite: ModelSuite) => {
    const failures = suite.tests.filter((t) => t.status === "failed").length;
    const skipped = suite.tests.filter((t) => t.status === "skipped").length;
    const cases = suite.tests.map((t) => {
      const open = `<testcase classname="${xmlEscape(suite.name)}" name="${xmlEscape(t.name)}" time="${t.durationMs / 1000}"`;
      if (t.status === "passed") return `${open}/>`;
      if (t.status === "skipped") return `${open}><skipped/></testcase>`;
      const tag = dialect === "surefire-errors" ? "error" : "failure";
      return `${open}><${tag} message="${xmlEscape(t.name)}" type="AssertionError"><![CDATA[at ${t.name.replace(/]]>/g, "")}]]></${tag}></testcase>`;
    });
    const counts =
      dialect === "surefire-errors"
        ? `errors="${failures}" failures="0"`
        : `failures="${failures}"`;
    return `<testsuite name="${xmlEscape(suite.name)}" tests="${suite.tests.length}" ${counts} skipped="${skipped}">\n${cases.join("\n")}\n</testsuite>`;
  };
  const head = '<?xml version="1.0" encoding="UTF-8"?>\n';
  if (dialect === "testsuites")
    return `${head}<testsuites name="model">\n${suites.map(suiteXml).join("\n")}\n</testsuites>\n`;
  // One <testsuite> root: the other suites go into files of their own (see reportFiles).
  return head + suiteXml(suites[0]!);
}

export function cucumberReport(suites: Model): string {
  return JSON.stringify(
    suites.map((suite, f) => ({
      uri: `features/f${f}.feature`,
      id: `f${f}`,
      keyword: "Feature",
      name: suite.name,
      line: 1,
      elements: suite.tests.map((t, s) => ({
        id: `f${f};s${s}`,
        keyword: "Scenario",
        type: "scenario",
        name: t.name,
        line: s + 3,
        steps: [
          {
            keyword: "Given ",
            name: "a step",
            line: s + 4,
            result: {
              status: t.status,
              duration: t.durationMs * 1_000_000,
              ...(t.status === "failed" && { error_message: `AssertionError: ${t.name}` }),
            },
          },
        ],
      })),
    })),
  );
}

export function ctrfReport(suites: Model): string {
  const tests = suites.flatMap((suite) =>
    suite.tests.map((t) => ({
      name: t.name,
      status: t.status,
      duration: t.durationMs,
      suite: [suite.name],
    })),
  );
  const c = modelCounts(suites);
  return JSON.stringify({
    reportFormat: "CTRF",
    specVersion: "0.0.0",
    results: {
      tool: { name: "model" },
      summary: { tests: tests.length, ...c, pending: 0, other: 0, start: 1, stop: 2 },
      tests,
    },
  });
}

export function mochaReport(suites: Model): string {
  const all = suites.flatMap((suite) =>
    suite.tests.map((t) => ({
      entry: {
        title: t.name,
        fullTitle: `${suite.name} ${t.name}`,
        file: "/ci/test/model.spec.js",
        duration: t.durationMs,
        currentRetry: 0,
        err: t.status === "failed" ? { message: t.name, stack: `Error: ${t.name}` } : {},
      },
      status: t.status,
    })),
  );
  const of = (status: RawStatus) => all.filter((a) => a.status === status).map((a) => a.entry);
  const c = modelCounts(suites);
  return JSON.stringify({
    stats: {
      suites: suites.length,
      tests: all.length,
      passes: c.passed,
      pending: c.skipped,
      failures: c.failed,
    },
    tests: all.map((a) => a.entry),
    pending: of("skipped"),
    failures: of("failed"),
    passes: of("passed"),
  });
}

/** Allure writes one result file per test, named by its uuid. */
export function allureResults(suites: Model): { name: string; text: string }[] {
  return suites.flatMap((suite) =>
    suite.tests.map((t) => {
      const uuid = randomUUID();
      return {
        name: `${uuid}-result.json`,
        text: JSON.stringify({
          uuid,
          historyId: uuid,
          name: t.name,
          fullName: `${suite.name}#${t.name}`,
          status: t.status,
          stage: "finished",
          start: 1_764_000_000_000,
          stop: 1_764_000_000_000 + t.durationMs,
          labels: [{ name: "suite", value: suite.name }],
          ...(t.status === "failed" && {
            statusDetails: { message: t.name, trace: `at ${t.name}` },
          }),
          steps: [],
          attachments: [],
          parameters: [],
        }),
      };
    }),
  );
}

/** The report files a model becomes in one format (JUnit with one root suite: a file per suite). */
export function reportFiles(
  format: ReportFormat,
  suites: Model,
  dialect: JunitDialect = "testsuites",
): { name: string; text: string }[] {
  switch (format) {
    case "junit":
      return dialect === "testsuites"
        ? [{ name: "junit.xml", text: junitReport(suites, dialect) }]
        : suites.map((suite, i) => ({
            name: `TEST-${i}.xml`,
            text: junitReport([suite], dialect),
          }));
    case "cucumber":
      return [{ name: "cucumber.json", text: cucumberReport(suites) }];
    case "ctrf":
      return [{ name: "ctrf.json", text: ctrfReport(suites) }];
    case "mocha":
      return [{ name: "mocha.json", text: mochaReport(suites) }];
    case "allure":
      return allureResults(suites);
    case "playwright":
      return [{ name: "results.json", text: playwrightReport(suites) }];
    case "locust":
      return [{ name: "run_stats.csv", text: locustStats(suites) }];
    case "trx":
      return [{ name: "results.trx", text: trxReport(suites) }];
    case "nunit":
      return [{ name: "TestResult.xml", text: nunitReport(suites) }];
    case "xunit":
      return [{ name: "xunit.xml", text: xunitReport(suites) }];
    case "testng":
      return [{ name: "testng-results.xml", text: testngReport(suites) }];
    case "gotest":
      return [{ name: "go-test.json", text: goTestReport(suites) }];
    case "rspec":
      return [{ name: "rspec.json", text: rspecReport(suites) }];
    case "dart":
      return [{ name: "dart-test.json", text: dartReport(suites) }];
  }
}

const PLAYWRIGHT_STATUS = { passed: "expected", failed: "unexpected", skipped: "skipped" } as const;

/** Playwright's JSON reporter: a suite per spec file, a describe suite inside, one attempt each. */
export function playwrightReport(suites: Model): string {
  return JSON.stringify({
    config: { rootDir: "/ci/tests", projects: [{ name: "chromium" }] },
    suites: suites.map((suite, i) => ({
      title: `s${i}.spec.ts`,
      file: `s${i}.spec.ts`,
      specs: [],
      suites: [
        {
          title: suite.name,
          file: `s${i}.spec.ts`,
          specs: suite.tests.map((t) => ({
            title: t.name,
            file: `s${i}.spec.ts`,
            tags: [],
            tests: [
              {
                projectName: "chromium",
                expectedStatus: "passed",
                status: PLAYWRIGHT_STATUS[t.status],
                annotations: [],
                results: [
                  {
                    status: t.status,
                    retry: 0,
                    duration: t.durationMs,
                    startTime: "2026-11-26T09:00:00.000Z",
                    ...(t.status === "failed" && {
                      error: { message: t.name, stack: `Error: ${t.name}` },
                    }),
                  },
                ],
              },
            ],
          })),
        },
      ],
    })),
    errors: [],
    stats: { startTime: "2026-11-26T09:00:00.000Z", duration: 1 },
  });
}

const csvField = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

/** Locust's `--csv` stats file: one row per endpoint (a model test), then the Aggregated row. */
export function locustStats(suites: Model): string {
  const header =
    "Type,Name,Request Count,Failure Count,Median Response Time,Average Response Time,Min Response Time," +
    "Max Response Time,Average Content Size,Requests/s,Failures/s,50%,66%,75%,80%,90%,95%,98%,99%,99.9%,99.99%,100%";
  const row = (type: string, name: string, n: number, ms: number) =>
    [type, csvField(name), n, 0, ms, ms, ms, ms, 10, 1.5, 0, ...Array<number>(11).fill(ms)].join(
      ",",
    );
  const rows = suites.flatMap((suite, i) =>
    suite.tests.map((t, j) => row("GET", `/${i}/${j}/${t.name}`, t.durationMs + 1, t.durationMs)),
  );
  return [header, ...rows, row("", "Aggregated", rows.length, 1)].join("\n") + "\n";
}
