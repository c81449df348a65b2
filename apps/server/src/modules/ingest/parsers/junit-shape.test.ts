import type { ResultInput } from "@assay/core";
import { describe, expect, it } from "vitest";
import { parseJunit } from "./junit.js";
import { HOLD_LIMIT } from "./junit-suites.js";
import { textFile, uploadOf } from "./test-files.js";

/*
 * What the JUnit parser's speed-ups must not change beyond the values the other tests check: the
 * order of each result's fields (it shows in any JSON written from a result), which results share
 * objects, and the cached reading of suites when a suite gains properties or output after
 * testcases have already been read.
 */

async function parse(xml: string): Promise<ResultInput[]> {
  const results: ResultInput[] = [];
  for await (const result of parseJunit(textFile("report.xml", xml), uploadOf())) {
    results.push(result);
  }
  return results;
}

const REPORT = `<testsuites>
<testsuite name="cart" file="cart.spec.ts" timestamp="2025-01-15T02:00:00">
  <properties><property name="branch" value="main"/><property name="owner" value="team-a"/></properties>
  <testcase name="adds" classname="cart" time="1.5"/>
  <testcase name="removes" classname="PricingTest" time="0.2" timestamp="2025-01-15T02:00:01">
    <failure message="expected 1" type="AssertionError">AssertionError: expected 1
    at t (cart.spec.ts:1:1)</failure>
    <system-out>log
[[ATTACHMENT|shots/a.png]]</system-out>
    <properties><property name="step" value="open"/><property name="attachment" value="shots/b.png"/></properties>
  </testcase>
  <testcase name="skips" time="0"><skipped message="later"/></testcase>
  <testcase name="flaky" time="2"><flakyFailure message="timeout" type="TimeoutError"><stackTrace>TimeoutError: timeout
    at x (a.js:1:1)</stackTrace><system-err>e</system-err></flakyFailure></testcase>
  <system-err>suite err</system-err>
</testsuite>
</testsuites>`;

describe("parseJunit result shape", () => {
  it("keeps the order of every result's fields", async () => {
    const keys = (await parse(REPORT)).map((r) => Object.keys(r).join(" "));
    const common = "name suite_path file start_time status";
    expect(keys).toEqual([
      `${common} duration_ms attempt console_errors branch properties`,
      `${common} duration_ms end_time failure_type error_message error_name error_stack ` +
        "console_log attachments attempt steps console_errors branch properties",
      `${common} duration_ms error_message attempt console_errors branch properties`,
      `${common} failure_type error_message error_name error_stack console_errors attempt branch properties`,
      `${common} duration_ms attempt console_errors branch properties`,
    ]);
  });

  it("shares the suite's properties record, and gives each testcase its own suite path", async () => {
    const [adds, removes, skips, flakyRun, flaky] = await parse(REPORT);
    expect(adds?.properties).toEqual({ branch: "main", owner: "team-a" });
    // Testcases share their suite's record (nothing changes it once made), whose JSON is then
    // made once for all of them (result-rows.ts).
    expect(adds?.properties).toBe(skips?.properties);
    expect(adds?.suite_path).not.toBe(skips?.suite_path);
    expect(removes?.suite_path).toEqual(["cart", "PricingTest"]);
    // The attempts of one testcase share them, as they always have.
    expect(flakyRun?.properties).toBe(flaky?.properties);
    expect(flakyRun?.suite_path).toBe(flaky?.suite_path);
  });

  it("re-reads a suite that gains properties and output between its testcases", async () => {
    const cases = (from: number) =>
      Array.from({ length: 3 }, (_, i) => `<testcase name="t${from + i}"/>`).join("");
    // Past HOLD_LIMIT testcases suites stream: each testcase takes what precedes it.
    const filler = Array.from({ length: HOLD_LIMIT + 1 }, (_, i) => `<testcase name="f${i}"/>`);
    const results = await parse(
      `<testsuite name="outer"><properties><property name="branch" value="main"/></properties>` +
        `<testsuite name="inner">${filler.join("")}${cases(0)}` +
        `<properties><property name="branch" value="dev"/><property name="os" value="linux"/></properties>` +
        `${cases(3)}<system-out>[[PROPERTY|owner=qa]]</system-out>${cases(6)}</testsuite></testsuite>`,
    );
    const byName = new Map(results.map((r) => [r.name, r]));
    expect(byName.get("t0")).toMatchObject({ branch: "main", properties: { branch: "main" } });
    expect(byName.get("t0")?.platform).toBeUndefined();
    expect(byName.get("t3")).toMatchObject({
      branch: "dev",
      platform: "linux",
      properties: { branch: "dev", os: "linux" },
    });
    expect(byName.get("t6")?.properties).toEqual({ branch: "dev", os: "linux", owner: "qa" });
  });
});
