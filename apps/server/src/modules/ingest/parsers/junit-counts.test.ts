import type { ResultInput } from "@assay/core";
import { describe, expect, it } from "vitest";
import { parseJunit } from "./junit.js";
import { fixtureFile, textFile, uploadOf } from "./test-files.js";
import type { ParseOptions, ReportFile } from "./types.js";

/*
 * Every test case a JUnit report lists is stored, as its header counts them: a nameless one is
 * named after its file or suite, and totals that disagree with the test cases are a warning.
 */

async function parse(file: ReportFile, options: Omit<ParseOptions, "warn"> = {}) {
  const results: ResultInput[] = [];
  const warnings: string[] = [];
  const warn = (message: string) => warnings.push(message);
  for await (const result of parseJunit(file, uploadOf(file), { ...options, warn })) {
    results.push(result);
  }
  return { results, warnings };
}

const xml = (text: string) => textFile("report.xml", text);

describe("parseJunit on a test case without a name (jest-junit, a test titled '')", () => {
  it("names it after its file, keeps the others and says so", async () => {
    const { results, warnings } = await parse(fixtureFile("junit", "jest-junit-nameless.xml"));
    expect(results.map((r) => [r.name, r.status])).toEqual([
      ["unnamed test 1 in tests-nameless/promiseReject.test.js", "passed"],
      ["resolves with the value", "passed"],
      ["rejects with the reason", "passed"],
    ]);
    expect(warnings).toEqual([
      "jest-junit-nameless.xml: a <testcase> has neither a name nor a classname; stored as 'unnamed test 1 in tests-nameless/promiseReject.test.js'.",
    ]);
  });

  it("numbers several per suite, and names them after the suite when there is no file", async () => {
    const { results, warnings } = await parse(
      xml(`<testsuites><testsuite name="Checkout">
<testcase name="" classname=""/><testcase name="pays"/><testcase/>
</testsuite><testsuite name="Cart"><testcase name=" "/></testsuite></testsuites>`),
    );
    expect(results.map((r) => r.name)).toEqual([
      "unnamed test 1 in Checkout",
      "pays",
      "unnamed test 2 in Checkout",
      "unnamed test 1 in Cart",
    ]);
    expect(new Set(results.map((r) => r.name)).size).toBe(4);
    expect(warnings).toEqual([
      "report.xml: 3 <testcase> elements have neither a name nor a classname; stored as 'unnamed test 1 in Checkout', 'unnamed test 2 in Checkout', 'unnamed test 1 in Cart'.",
    ]);
  });
});

describe("parseJunit on same-named test cases (parameterized tests, as Surefire writes them)", () => {
  // A JUnit 4 Parameterized test without a name pattern repeats the method name per parameter.
  const report = xml(`<testsuite name="com.example.PriceTest" tests="4" failures="1" skipped="1">
<testcase name="rounds" classname="com.example.PriceTest" time="0.01"/>
<testcase name="rounds" classname="com.example.PriceTest" time="0.01"><failure message="expected 3"/></testcase>
<testcase name="rounds" classname="com.example.PriceTest" time="0.01"><skipped/></testcase>
<testcase name="formats" classname="com.example.PriceTest" time="0.01"/>
</testsuite>`);

  it("yields each as a first attempt, so that every one is counted", async () => {
    const { results, warnings } = await parse(report);
    expect(results.map((r) => [r.name, r.attempt, r.status])).toEqual([
      ["rounds", 0, "passed"],
      ["rounds", 0, "failed"],
      ["rounds", 0, "skipped"],
      ["formats", 0, "passed"],
    ]);
    expect(warnings).toEqual([]);
  });

  it("numbers them as attempts of one test when the upload asks for JUnit retries", async () => {
    const { results } = await parse(report, { junitRetries: true });
    expect(results.map((r) => [r.name, r.attempt])).toEqual([
      ["rounds", 0],
      ["rounds", 1],
      ["rounds", 2],
      ["formats", 0],
    ]);
  });
});

describe("parseJunit compares the report's totals with the test cases it lists", () => {
  it("says nothing when they agree (the real reporters' fixtures)", async () => {
    for (const name of [
      "mocha-junit.xml",
      "TEST-com.example.CartTest.xml",
      "node-test-junit.xml",
    ]) {
      const { warnings } = await parse(fixtureFile("junit", name));
      expect(warnings, name).toEqual([]);
    }
  });

  it("notices jest-junit's test.todo, listed as a test case but left out of the totals", async () => {
    const { results, warnings } = await parse(fixtureFile("junit", "jest-junit.xml"));
    expect(results).toHaveLength(7);
    expect(warnings).toEqual([
      "jest-junit.xml: the report's totals say 6 tests, but it lists 7 tests; the 7 test cases " +
        "listed are stored. Likely cause: the reporter lists entries its totals leave out " +
        "(jest-junit lists test.todo tests without counting them), reports or suites were put " +
        "together without adding up their totals, or a rerun tool added test cases.",
    ]);
  });

  it("gives both numbers and the likely cause when skipped tests were left out", async () => {
    const { results, warnings } = await parse(
      xml(`<testsuites tests="5" failures="1" errors="0" skipped="2">
<testsuite name="s"><testcase name="a"/><testcase name="b"><failure/></testcase>
<testcase name="c"/><testcase name="d"><skipped/></testcase></testsuite></testsuites>`),
    );
    expect(results).toHaveLength(4);
    expect(warnings).toEqual([
      "report.xml: the report's totals say 5 tests, 2 skipped, but it lists 4 tests, 1 skipped; " +
        "the 4 test cases listed are stored. Likely cause: the reporter was configured to leave " +
        "skipped or pending tests out of the file.",
    ]);
  });

  it("sums the suites' totals when the root has none, and counts errors as failures", async () => {
    const { warnings } = await parse(
      xml(`<testsuites>
<testsuite name="s1" tests="2" failures="0" errors="1"><testcase name="a"/><testcase name="b"><error/></testcase></testsuite>
<testsuite name="s2" tests="1" failures="1" errors="0"><testcase name="c"/></testsuite>
</testsuites>`),
    );
    expect(warnings).toEqual([
      "report.xml: the report's totals say 2 failed, but it lists 1 failed; the 3 test cases " +
        "listed are stored. Likely cause: the reporter counts some outcomes differently (an " +
        "error as a failure, a failed hook as a test).",
    ]);
  });

  it("names files put together without their totals added up", async () => {
    const { warnings } = await parse(
      xml(`<testsuite name="s" tests="1"><testcase name="a"/><testcase name="b"/></testsuite>`),
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("say 1 tests, but it lists 2 tests");
    expect(warnings[0]).toContain("without adding up their totals");
  });
});
