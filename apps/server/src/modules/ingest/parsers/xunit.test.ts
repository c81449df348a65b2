import { ResultInputSchema } from "@assay/core";
import { describe, expect, it } from "vitest";
import { fixtureFile, fixtureText, textFile, uploadOf } from "./test-files.js";
import type { ParsedResult, ReportFile } from "./types.js";
import { detectXunit, parseXunit } from "./xunit.js";

async function parse(file: ReportFile) {
  const results: ParsedResult[] = [];
  const warnings: string[] = [];
  for await (const r of parseXunit(file, uploadOf(file), { warn: (w) => warnings.push(w) })) {
    results.push(r);
  }
  return { results, warnings };
}

describe("parseXunit", () => {
  it("reads every test, theory rows apart, and an error outside tests as a failed result", async () => {
    const { results, warnings } = await parse(fixtureFile("xunit", "xunit-v2.xml"));
    expect(results.map((r) => [r.suite_path, r.name, r.status])).toEqual([
      [["Shop.Tests.StockTests"], "[fixture-cleanup]", "failed"],
      [["Shop.Tests.CartTests"], "AddsAProduct", "passed"],
      [["Shop.Tests.CartTests"], "CountsTheQuantity(qty: 1, expected: 1)", "passed"],
      [["Shop.Tests.CartTests"], "CountsTheQuantity(qty: 2, expected: 3)", "failed"],
      [["Shop.Tests.CartTests"], "CountsTheQuantity(qty: 2, expected: 3)", "failed"],
      [["Shop.Tests.CartTests"], "PaysByInvoice", "skipped"],
      [["Shop.Tests.StockTests"], "ThrowsUnexpectedly", "failed"],
      [["Shop.Tests.StockTests"], "NeedsWarehouse", "skipped"],
    ]);
    expect(warnings).toEqual([]);
    for (const r of results) {
      expect(ResultInputSchema.safeParse(r).success).toBe(true);
      expect(r.file).toBe("Shop.Tests.dll");
    }
  });

  it("keeps traits as tags, output, skip reasons and the failure's type, message and stack", async () => {
    const { results } = await parse(fixtureFile("xunit", "xunit-v2.xml"));
    expect(results[0]).toMatchObject({
      failure_type: "error",
      error_name: "System.IO.IOException",
      error_message: "System.IO.IOException : the stock file is locked",
    });
    expect(results[1]).toMatchObject({
      tags: ["Smoke", "Owner=qa-team"],
      console_log: "added apple x2",
      duration_ms: 12.346,
    });
    expect(results[3]).toMatchObject({
      error_name: "Xunit.Sdk.EqualException",
      error_message: "Assert.Equal() Failure: Values differ\nExpected: 3\nActual:   2",
      error_stack: expect.stringContaining("CartTests.cs:line 31"),
    });
    expect(results[5]!.error_message).toBe("invoice gateway not wired");
  });

  it("warns when the assembly's totals disagree with the tests listed", async () => {
    const text = fixtureText("xunit", "xunit-v2.xml").replace('total="7"', 'total="9"');
    const { warnings } = await parse(textFile("xunit.xml", text));
    expect(warnings).toEqual([expect.stringContaining("say 10 tests, but it lists 8 tests")]);
  });

  it("reads xUnit v3's schema-version 3 report (ids, not-run apart from skipped)", async () => {
    // The shape xunit.net/docs/format-xml-v3 publishes: v3 adds ids, *-rtf times and not-run.
    const v3 = `<?xml version="1.0" encoding="utf-8"?>
<assemblies schema-version="3" id="r1" computer="ci" user="ci" timestamp="11/28/2026 09:00:00">
  <assembly name="/src/Shop.Tests.dll" id="a1" target-framework=".NETCoreApp,Version=v8.0" test-framework="xUnit.net v3 1.0.0" time="0.1" total="3" passed="1" failed="1" skipped="0" not-run="1" errors="0">
    <errors />
    <collection id="c1" name="Test collection for Shop.Tests.CartTests" time="0.1" total="3" passed="1" failed="1" skipped="0" not-run="1">
      <test id="t1" name="Shop.Tests.CartTests.Adds" type="Shop.Tests.CartTests" method="Adds" time="0.001" result="Pass"><traits><trait name="Category" value="Smoke" /></traits></test>
      <test id="t2" name="Shop.Tests.CartTests.Pays" type="Shop.Tests.CartTests" method="Pays" time="0.002" result="Fail"><failure exception-type="Xunit.Sdk.FailException"><message><![CDATA[Assert.Fail(): declined]]></message><stack-trace><![CDATA[at Shop.Tests.CartTests.Pays()]]></stack-trace></failure></test>
      <test id="t3" name="Shop.Tests.CartTests.Slow" type="Shop.Tests.CartTests" method="Slow" time="0" result="NotRun" />
    </collection>
  </assembly>
</assemblies>`;
    const { results, warnings } = await parse(textFile("xunit-v3.xml", v3));
    expect(results.map((r) => [r.name, r.status, r.tags])).toEqual([
      ["Adds", "passed", ["Smoke"]],
      ["Pays", "failed", []],
      ["Slow", "skipped", []],
    ]);
    expect(results[1]!.error_message).toBe("Assert.Fail(): declined");
    expect(warnings).toEqual([]);
  });

  it("is detected by its <assemblies> root", () => {
    expect(detectXunit(fixtureText("xunit", "xunit-v2.xml"), "x.xml")).toBe(true);
    expect(detectXunit("<testng-results>", "x.xml")).toBe(false);
  });
});
