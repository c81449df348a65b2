import type { ResultInput } from "@assay/core";
import { describe, expect, it } from "vitest";
import { parseJunit } from "./junit.js";
import { HOLD_LIMIT, SHARED_OUTPUT_BUDGET } from "./junit-suites.js";
import { textFile, uploadOf } from "./test-files.js";

/*
 * The JUnit conventions no fixture reporter writes all of: nested suites with properties
 * (testmoapp/junitxml), property and output conventions, Surefire's documented flaky form,
 * pytest-style classnames, odd numbers and times.
 */

async function parse(xml: string): Promise<ResultInput[]> {
  const results: ResultInput[] = [];
  for await (const result of parseJunit(textFile("report.xml", xml), uploadOf())) {
    results.push(result);
  }
  return results;
}

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk";

describe("parseJunit suites and properties", () => {
  it("nests suite paths, inherits properties and lets inner levels override", async () => {
    const results = await parse(`<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="run" tests="99" failures="50" errors="7" skipped="3">
  <testsuite name="Tests.Authentication" timestamp="2021-04-02T15:48:23">
    <properties>
      <property name="browser" value="Google Chrome"/>
      <property name="commit" value="ef7bebf"/>
      <property name="config">
        line 1
        line 2
      </property>
    </properties>
    <testsuite name="Login" timestamp="2021-04-02T15:48:30+02:00" file="tests/login.code">
      <properties><property name="browser" value="Firefox"/></properties>
      <testcase name="testCase4" classname="Tests.Authentication.Login" time="2.244"/>
    </testsuite>
    <testcase name="testCase7" classname="Tests.Authentication" time="1,234.5">
      <properties>
        <property name="priority" value="high"/>
        <property name="tag" value="smoke"/>
        <property name="tag" value="login"/>
        <property name="version" value="1.774"/>
      </properties>
    </testcase>
  </testsuite>
</testsuites>`);
    expect(results.map((r) => [r.suite_path, r.name, r.start_time, r.duration_ms])).toEqual([
      [["Tests.Authentication", "Login"], "testCase4", "2021-04-02T13:48:30.000Z", 2244],
      [["Tests.Authentication"], "testCase7", "2021-04-02T15:48:23.000Z", 1234500],
    ]);
    expect(results[0]).toMatchObject({
      file: "tests/login.code",
      commit_hash: "ef7bebf",
      properties: { browser: "Firefox", commit: "ef7bebf", config: "line 1\n        line 2" },
    });
    expect(results[1]).toMatchObject({
      version: "1.774",
      properties: { browser: "Google Chrome", priority: "high", tag: "smoke\nlogin" },
    });
  });

  it("counts results from the testcases, never from the totals", async () => {
    const results = await parse(
      `<testsuite name="s" tests="1000" failures="0" skipped="999"><testcase name="a"/><testcase name="b"><failure/></testcase></testsuite>`,
    );
    expect(results.map((r) => r.status)).toEqual(["passed", "failed"]);
  });

  it("reads step, attachment and output-property conventions", async () => {
    const [result] = await parse(`<testsuite name="s"><testcase name="t">
  <failure message="boom"/>
  <properties>
    <property name="step[passed]" value="Open the page"/>
    <property name="step[failure]" value="Click save"/>
    <property name="step" value="Close"/>
    <property name="attachment" value="screenshots/a.png"/>
    <property name="attachment1" value="data:image/png;filename=dot.png;base64,${PNG}"/>
    <property name="attachment2" value="https://ci.example/artifacts/video.webm"/>
    <property name="attachment3" value="../../../../etc/passwd"/>
  </properties>
  <system-out>before
[[ATTACHMENT|logs\\browser.log]]
[[PROPERTY|author=Adrian]]
[[PROPERTY|browser-log]]
Log line 1
Log line 2
[[/PROPERTY]]
after</system-out>
</testcase></testsuite>`);
    expect(result?.steps).toEqual([
      { action: "Open the page", passed: true },
      { action: "Click save", passed: false },
      { action: "Close", passed: null },
    ]);
    expect(result?.attachments).toEqual([
      { name: "a.png", path: "screenshots/a.png", content_type: "image/png" },
      { name: "dot.png", content_type: "image/png", body_base64: PNG },
      // Passed on as written: the ingest layer only ever resolves it within the upload.
      { name: "passwd", path: "../../../../etc/passwd", content_type: "application/octet-stream" },
      { name: "browser.log", path: "logs\\browser.log", content_type: "text/plain" },
    ]);
    expect(result?.properties).toEqual({
      attachment2: "https://ci.example/artifacts/video.webm",
      author: "Adrian",
      "browser-log": "Log line 1\nLog line 2",
    });
    expect(result?.console_log).toMatch(/^before\n\[\[ATTACHMENT/);
  });

  it("gives suite output to tests without their own, before or after the testcases", async () => {
    const results = await parse(`<testsuites>
<testsuite name="a"><system-out>suite a out [[ATTACHMENT|a.log]]</system-out>
  <testcase name="one"/>
  <testcase name="two"><system-out>own out</system-out></testcase>
</testsuite>
<testsuite name="b">
  <testcase name="three"/>
  <system-out>suite b out
[[ATTACHMENT|b.log]]</system-out><system-err>suite b err</system-err>
</testsuite></testsuites>`);
    expect(results.map((r) => [r.name, r.console_log, r.console_errors])).toEqual([
      ["one", "suite a out [[ATTACHMENT|a.log]]", undefined],
      ["two", "own out", undefined],
      ["three", "suite b out\n[[ATTACHMENT|b.log]]", "suite b err"],
    ]);
    // Only a line of its own is an attachment reference.
    expect(results.map((r) => r.attachments?.map((a) => a.path))).toEqual([
      undefined,
      undefined,
      ["b.log"],
    ]);
  });

  it("bounds how much suite output is copied into results", async () => {
    const out = "x".repeat(SHARED_OUTPUT_BUDGET / 4 + 1);
    const cases = '<testcase name="t"/>'.repeat(10);
    const results = await parse(
      `<testsuite name="s">${cases}<system-out>${out}</system-out></testsuite>`,
    );
    expect(results.map((r) => r.console_log === out)).toEqual([
      ...Array<boolean>(3).fill(true),
      ...Array<boolean>(7).fill(false),
    ]);
  });

  it("streams suites too big to hold, still in document order", async () => {
    const cases = Array.from({ length: HOLD_LIMIT + 5 }, (_, i) => `<testcase name="t${i}"/>`);
    const results = await parse(
      `<testsuite name="big">${cases.join("")}<system-out>late</system-out></testsuite>`,
    );
    expect(results.map((r) => r.name)).toEqual(cases.map((_, i) => `t${i}`));
    // Let go before the suite closed, so its trailing output could not reach them.
    expect(results.filter((r) => r.console_log)).toEqual([]);
  });
});

describe("parseJunit attempts and names", () => {
  it("reads Surefire's documented flaky form, with the trace as text", async () => {
    const results = await parse(`<testsuite name="S"><testcase name="t" classname="S" time="0.1">
  <flakyFailure message="m1" type="AssertionError"> flaky failure stack trace
    <system-out> flaky failure </system-out>
  </flakyFailure>
  <flakyError message="m2" type="IOException"><stackTrace>trace 2</stackTrace></flakyError>
  <system-out> success </system-out>
</testcase></testsuite>`);
    expect(
      results.map((r) => [r.attempt, r.status, r.failure_type, r.error_stack, r.console_log]),
    ).toEqual([
      [0, "failed", "failure", "flaky failure stack trace", "flaky failure"],
      [1, "failed", "error", "trace 2", undefined],
      [2, "passed", undefined, undefined, "success"],
    ]);
  });

  const repeated = `<testsuite name="s">
<testcase name="t"><failure message="first"/></testcase>
<testcase name="u"/>
<testcase name="t"/></testsuite>`;

  it("keeps repeated testcases of one name as tests of their own by default", async () => {
    const results = await parse(repeated);
    expect(results.map((r) => [r.name, r.attempt, r.status])).toEqual([
      ["t", 0, "failed"],
      ["u", 0, "passed"],
      ["t", 0, "passed"],
    ]);
  });

  it("numbers repeated testcases of the same test as attempts when the upload asks", async () => {
    const results: ResultInput[] = [];
    const file = textFile("report.xml", repeated);
    for await (const result of parseJunit(file, uploadOf(), { junitRetries: true })) {
      results.push(result);
    }
    expect(results.map((r) => [r.name, r.attempt, r.status])).toEqual([
      ["t", 0, "failed"],
      ["u", 0, "passed"],
      ["t", 1, "passed"],
    ]);
  });

  it("adds a classname that names something the suites do not (pytest)", async () => {
    const results = await parse(`<testsuites><testsuite name="pytest">
<testcase classname="tests.test_cart.TestCart" name="test_add"/>
<testcase classname="pytest" name="test_same"/>
<testcase classname="test" name="node default"/>
<testcase name="no classname"/>
</testsuite></testsuites>`);
    expect(results.map((r) => r.suite_path)).toEqual([
      ["pytest", "tests.test_cart.TestCart"],
      ["pytest"],
      ["pytest"],
      ["pytest"],
    ]);
  });

  it("keeps failure and error apart and skipped messages", async () => {
    const results = await parse(`<testsuite name="s">
<testcase name="f"><failure message="Expected value did not match." type="AssertionError">trace</failure></testcase>
<testcase name="e"><error message="Division by zero." type="ArithmeticError"/></testcase>
<testcase name="k"><skipped message="Test was skipped."/></testcase>
<testcase name="k2"><skipped>reason in text</skipped></testcase>
</testsuite>`);
    expect(
      results.map((r) => [r.status, r.failure_type, r.error_name, r.error_message, r.error_stack]),
    ).toEqual([
      ["failed", "failure", "AssertionError", "Expected value did not match.", "trace"],
      ["failed", "error", "ArithmeticError", "Division by zero.", undefined],
      ["skipped", undefined, undefined, "Test was skipped.", undefined],
      ["skipped", undefined, undefined, "reason in text", undefined],
    ]);
  });
});

describe("parseJunit numbers and times", () => {
  it("drops durations that are not a number of seconds", async () => {
    const times = ["NaN", "-1", "1e400", "", "abc", "1,5", "0.0005", ".5", "2e1"];
    const results = await parse(
      `<testsuite name="s">${times.map((t, i) => `<testcase name="t${i}" time="${t}"/>`).join("")}</testsuite>`,
    );
    expect(results.map((r) => r.duration_ms)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      1500,
      0.5,
      500,
      20000,
    ]);
  });

  it("reads timestamps without zone as UTC and drops implausible ones", async () => {
    const stamps = [
      "2024-03-01T10:00:00",
      "2024-03-01T10:00:00.250Z",
      "2024-03-01 10:00:00+0130",
      "2024-03-01",
      "0000-00-00",
      "99999-01-01T00:00:00",
      "yesterday",
    ];
    const results = await parse(
      `<testsuites>${stamps.map((t, i) => `<testsuite name="s${i}" timestamp="${t}"><testcase name="t"/></testsuite>`).join("")}</testsuites>`,
    );
    expect(results.map((r) => r.start_time)).toEqual([
      "2024-03-01T10:00:00.000Z",
      "2024-03-01T10:00:00.250Z",
      "2024-03-01T08:30:00.000Z",
      "2024-03-01T00:00:00.000Z",
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("uses a testcase's own timestamp for start and end", async () => {
    const [result] = await parse(
      `<testsuite name="s" timestamp="2024-01-01T00:00:00"><testcase name="t" timestamp="2024-03-01T10:00:00Z" time="1.5"/></testsuite>`,
    );
    expect(result).toMatchObject({
      start_time: "2024-03-01T10:00:00.000Z",
      end_time: "2024-03-01T10:00:01.500Z",
      duration_ms: 1500,
    });
  });
});
