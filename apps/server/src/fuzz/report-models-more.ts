import type { RawStatus } from "@assay/core";

/*
 * Writers of the formats added with issue #37 (TRX, NUnit 3, xUnit.net, TestNG, go test -json,
 * RSpec, Dart JSON), as the real tools write them, for report-models.ts's reportFiles.
 */

/** report-models.ts's Model, restated so that the two files do not import each other. */
type Model = { name: string; tests: { name: string; status: RawStatus; durationMs: number }[] }[];

function modelCounts(suites: Model): Record<RawStatus, number> {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for (const suite of suites) for (const test of suite.tests) counts[test.status]++;
  return counts;
}

const xml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => `&${{ "&": "amp", "<": "lt", ">": "gt", '"': "quot", "'": "apos" }[c]};`,
  );

const flat = (suites: Model) =>
  suites.flatMap((suite, s) => suite.tests.map((test, t) => ({ suite, test, id: `${s}-${t}` })));

const TRX_OUTCOME: Record<RawStatus, string> = {
  passed: "Passed",
  failed: "Failed",
  skipped: "NotExecuted",
};

/** vstest's TRX logger: results first, then the definitions naming each test's class. */
export function trxReport(suites: Model): string {
  const all = flat(suites);
  const hms = (ms: number) => {
    const s = ms / 1000;
    const h = Math.floor(s / 3600);
    const m = Math.floor((s % 3600) / 60);
    return `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}:${(s % 60).toFixed(7).padStart(10, "0")}`;
  };
  const results = all.map(({ test, id }) => {
    const open = `<UnitTestResult executionId="e-${id}" testId="t-${id}" testName="${xml(test.name)}" duration="${hms(test.durationMs)}" outcome="${TRX_OUTCOME[test.status]}"`;
    if (test.status !== "failed") return `${open} />`;
    return `${open}><Output><ErrorInfo><Message>${xml(test.name)}</Message><StackTrace>at ${xml(test.name)}</StackTrace></ErrorInfo></Output></UnitTestResult>`;
  });
  const definitions = all.map(
    ({ suite, test, id }) =>
      `<UnitTest name="${xml(test.name)}" storage="model.dll" id="t-${id}"><Execution id="e-${id}" /><TestMethod codeBase="model.dll" className="${xml(suite.name)}" name="${xml(test.name)}" /></UnitTest>`,
  );
  const c = modelCounts(suites);
  return `<?xml version="1.0" encoding="utf-8"?>
<TestRun id="run" name="model" xmlns="http://microsoft.com/schemas/VisualStudio/TeamTest/2010">
<Results>
${results.join("\n")}
</Results>
<TestDefinitions>
${definitions.join("\n")}
</TestDefinitions>
<ResultSummary outcome="Completed"><Counters total="${all.length}" executed="${c.passed + c.failed}" passed="${c.passed}" failed="${c.failed}" notExecuted="${c.skipped}" /></ResultSummary>
</TestRun>
`;
}

const NUNIT_RESULT: Record<RawStatus, string> = {
  passed: "Passed",
  failed: "Failed",
  skipped: "Skipped",
};

/** nunit3-console's TestResult.xml: an assembly suite, a fixture per suite. */
export function nunitReport(suites: Model): string {
  const c = modelCounts(suites);
  const total = c.passed + c.failed + c.skipped;
  const fixtures = suites.map((suite, s) => {
    const cases = suite.tests.map((test, t) => {
      const open = `<test-case id="${s}-${t}" name="${xml(test.name)}" fullname="${xml(`${suite.name}.${test.name}`)}" classname="${xml(suite.name)}" result="${NUNIT_RESULT[test.status]}" duration="${test.durationMs / 1000}"`;
      if (test.status === "passed") return `${open} />`;
      const inner =
        test.status === "failed"
          ? `<failure><message><![CDATA[${test.name.replace(/]]>/g, "")}]]></message></failure>`
          : `<reason><message><![CDATA[ignored]]></message></reason>`;
      return `${open}>${inner}</test-case>`;
    });
    return `<test-suite type="TestFixture" name="${xml(suite.name)}" fullname="${xml(suite.name)}" classname="${xml(suite.name)}">\n${cases.join("\n")}\n</test-suite>`;
  });
  return `<?xml version="1.0" encoding="utf-8" standalone="no"?>
<test-run id="2" total="${total}" passed="${c.passed}" failed="${c.failed}" inconclusive="0" skipped="${c.skipped}">
<test-suite type="Assembly" name="Model.Tests.dll" fullname="/ci/Model.Tests.dll">
${fixtures.join("\n")}
</test-suite>
</test-run>
`;
}

const XUNIT_RESULT: Record<RawStatus, string> = { passed: "Pass", failed: "Fail", skipped: "Skip" };

/** xunit.console's --xml: one assembly, a collection per suite. */
export function xunitReport(suites: Model): string {
  const c = modelCounts(suites);
  const collections = suites.map((suite) => {
    const tests = suite.tests.map((test) => {
      const open = `<test name="${xml(`${suite.name}.${test.name}`)}" type="${xml(suite.name)}" method="${xml(test.name)}" time="${test.durationMs / 1000}" result="${XUNIT_RESULT[test.status]}"`;
      if (test.status === "passed") return `${open} />`;
      const inner =
        test.status === "failed"
          ? `<failure exception-type="Xunit.Sdk.TrueException"><message>${xml(test.name)}</message></failure>`
          : `<reason>${xml(test.name)}</reason>`;
      return `${open}>${inner}</test>`;
    });
    return `<collection name="${xml(suite.name)}">\n${tests.join("\n")}\n</collection>`;
  });
  const total = c.passed + c.failed + c.skipped;
  return `<?xml version="1.0" encoding="utf-8"?>
<assemblies>
<assembly name="/ci/Model.Tests.dll" total="${total}" passed="${c.passed}" failed="${c.failed}" skipped="${c.skipped}" errors="0">
<errors />
${collections.join("\n")}
</assembly>
</assemblies>
`;
}

const TESTNG_STATUS: Record<RawStatus, string> = {
  passed: "PASS",
  failed: "FAIL",
  skipped: "SKIP",
};

/** TestNG's testng-results.xml: one suite and test, a class per model suite. */
export function testngReport(suites: Model): string {
  const c = modelCounts(suites);
  const classes = suites.map((suite) => {
    const methods = suite.tests.map((test) => {
      const open = `<test-method signature="${xml(test.name)}()" name="${xml(test.name)}" duration-ms="${test.durationMs}" status="${TESTNG_STATUS[test.status]}"`;
      if (test.status === "passed") return `${open}></test-method>`;
      return `${open}><exception class="java.lang.AssertionError"><message><![CDATA[${test.name.replace(/]]>/g, "")}]]></message></exception></test-method>`;
    });
    return `<class name="${xml(suite.name)}">\n${methods.join("\n")}\n</class>`;
  });
  const total = c.passed + c.failed + c.skipped;
  return `<?xml version="1.0" encoding="UTF-8"?>
<testng-results total="${total}" passed="${c.passed}" failed="${c.failed}" skipped="${c.skipped}">
<reporter-output></reporter-output>
<suite name="model"><groups></groups><test name="model">
${classes.join("\n")}
</test></suite>
</testng-results>
`;
}

const GO_ACTION: Record<RawStatus, string> = { passed: "pass", failed: "fail", skipped: "skip" };

/** `go test -json`: a package per model suite, run/output/end events per test. */
export function goTestReport(suites: Model): string {
  const time = "2026-11-28T09:00:00.000000000Z";
  const lines = suites.flatMap((suite) => {
    const Package = suite.name;
    const events = suite.tests.flatMap((test) => {
      const Test = test.name;
      const action = GO_ACTION[test.status];
      return [
        { Time: time, Action: "run", Package, Test },
        { Time: time, Action: "output", Package, Test, Output: `=== RUN   ${Test}\n` },
        ...(test.status === "passed"
          ? []
          : [
              { Time: time, Action: "output", Package, Test, Output: `    x_test.go:1: ${Test}\n` },
            ]),
        { Time: time, Action: action, Package, Test, Elapsed: test.durationMs / 1000 },
      ];
    });
    const failed = suite.tests.some((t) => t.status === "failed");
    return [...events, { Time: time, Action: failed ? "fail" : "pass", Package, Elapsed: 0.01 }];
  });
  return lines.map((event) => JSON.stringify(event)).join("\n") + "\n";
}

/** `rspec --format json`. */
export function rspecReport(suites: Model): string {
  const c = modelCounts(suites);
  const examples = flat(suites).map(({ suite, test, id }) => ({
    id: `./spec/model_spec.rb[${id}]`,
    description: test.name,
    full_description: `${suite.name} ${test.name}`,
    status: test.status === "skipped" ? "pending" : test.status,
    file_path: "./spec/model_spec.rb",
    line_number: 1,
    run_time: test.durationMs / 1000,
    pending_message: test.status === "skipped" ? "pending" : null,
    ...(test.status === "failed" && {
      exception: { class: "RuntimeError", message: test.name, backtrace: [`spec.rb:1`] },
    }),
  }));
  const total = c.passed + c.failed + c.skipped;
  return JSON.stringify({
    version: "3.12.0",
    examples,
    summary: {
      duration: 1,
      example_count: total,
      failure_count: c.failed,
      pending_count: c.skipped,
      errors_outside_of_examples_count: 0,
    },
    summary_line: `${total} examples`,
  });
}

/** `dart test --reporter json`: a group per model suite, with the hidden loading test. */
export function dartReport(suites: Model): string {
  const events: object[] = [
    { protocolVersion: "0.1.1", runnerVersion: "1.25.8", pid: 1, type: "start", time: 0 },
    { suite: { id: 0, platform: "vm", path: "test/model_test.dart" }, type: "suite", time: 0 },
    {
      test: { id: 1, name: "loading test/model_test.dart", suiteID: 0, groupIDs: [] },
      type: "testStart",
      time: 0,
    },
    { testID: 1, result: "success", skipped: false, hidden: true, type: "testDone", time: 1 },
  ];
  let id = 2;
  for (const suite of suites) {
    const group = id++;
    events.push({ group: { id: group, suiteID: 0, name: suite.name }, type: "group", time: 1 });
    for (const test of suite.tests) {
      const testId = id++;
      const name = `${suite.name} ${test.name}`;
      events.push({
        test: { id: testId, name, suiteID: 0, groupIDs: [group], metadata: {} },
        type: "testStart",
        time: 1,
      });
      if (test.status === "failed") {
        events.push({
          testID: testId,
          error: test.name,
          stackTrace: "",
          isFailure: true,
          type: "error",
          time: 1,
        });
      }
      events.push({
        testID: testId,
        result: test.status === "failed" ? "failure" : "success",
        skipped: test.status === "skipped",
        hidden: false,
        type: "testDone",
        time: 1 + test.durationMs,
      });
    }
  }
  events.push({ success: true, type: "done", time: 2 });
  return events.map((event) => JSON.stringify(event)).join("\n") + "\n";
}
