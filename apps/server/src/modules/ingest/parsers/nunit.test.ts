import { ResultInputSchema } from "@assay/core";
import { describe, expect, it } from "vitest";
import { detectNunit, parseNunit } from "./nunit.js";
import { fixtureFile, fixtureText, textFile, uploadOf } from "./test-files.js";
import type { ParsedResult, ReportFile } from "./types.js";

async function parse(file: ReportFile, ...others: ReportFile[]) {
  const results: ParsedResult[] = [];
  const warnings: string[] = [];
  const upload = uploadOf(file, ...others);
  for await (const r of parseNunit(file, upload, { warn: (w) => warnings.push(w) }))
    results.push(r);
  return { results, warnings };
}

describe("parseNunit on NUnit 3's TestResult.xml", () => {
  it("reads every test case, parameterised cases apart, with the class as suite", async () => {
    const { results, warnings } = await parse(fixtureFile("nunit", "nunit3-TestResult.xml"));
    expect(results.map((r) => [r.suite_path, r.name, r.status, r.failure_type])).toEqual([
      [["Shop.Tests.CartTests"], "AddsAProduct", "passed", undefined],
      [["Shop.Tests.CartTests"], "CountsTheQuantity(1,1)", "passed", undefined],
      [["Shop.Tests.CartTests"], "CountsTheQuantity(2,3)", "failed", undefined],
      [["Shop.Tests.CartTests"], "CountsTheQuantity(2,3)", "failed", undefined],
      [["Shop.Tests.CartTests"], "PaysByInvoice", "skipped", undefined],
      [["Shop.Tests.CartTests"], "WarnsAboutStock", "passed", undefined],
      [["Shop.Tests.StockTests"], "ThrowsUnexpectedly", "failed", "error"],
      [["Shop.Tests.StockTests"], "IsInconclusive", "skipped", undefined],
    ]);
    expect(warnings).toEqual([]);
    for (const r of results) expect(ResultInputSchema.safeParse(r).success).toBe(true);
  });

  it("keeps categories (the fixture's too) as tags, properties, output, reasons and attachments", async () => {
    const png = textFile("screens/cart.png", Buffer.from([0x89]));
    const { results } = await parse(fixtureFile("nunit", "nunit3-TestResult.xml"), png);
    expect(results[0]).toMatchObject({
      file: "Shop.Tests.dll",
      tags: ["Cart", "Smoke"],
      description: "adds a product to the cart",
      properties: { Owner: "qa-team" },
      console_log: "added apple x2",
      attachments: [
        { name: "cart.png", path: "screens/cart.png", description: "the cart after adding" },
      ],
    });
    expect(results[2]).toMatchObject({
      error_message: "Expected: 3\n  But was:  2",
      error_stack: expect.stringContaining("CartTests.cs:line 31"),
    });
    expect(results[4]!.error_message).toBe("invoice gateway not wired");
    expect(results[6]!.console_log).toBe("locking stock");
  });
});

describe("parseNunit on nunit-console 2.6.4's TestResult.xml", () => {
  it("splits NUnit 2's full names into class and test, with the tool's counts", async () => {
    const { results, warnings } = await parse(fixtureFile("nunit", "nunit2-TestResult.xml"));
    expect(results.map((r) => [r.suite_path, r.name, r.status])).toEqual([
      [["Shop.Tests.CartTests"], "AddsAProduct", "passed"],
      [["Shop.Tests.CartTests"], "CountsTheQuantity(1,1)", "passed"],
      [["Shop.Tests.CartTests"], "CountsTheQuantity(2,3)", "failed"],
      [["Shop.Tests.CartTests"], "IsInconclusive", "skipped"],
      [["Shop.Tests.CartTests"], "PaysByInvoice", "skipped"],
      [["Shop.Tests.CartTests"], "RejectsNegativeQuantity", "failed"],
      [["Shop.Tests.CartTests"], "ThrowsUnexpectedly", "failed"],
    ]);
    // "Tests run: 6, Errors: 1, Failures: 2, Inconclusive: 1, Not run: 1": no disagreement.
    expect(warnings).toEqual([]);
    expect(results[0]!.tags).toEqual(["Cart", "Smoke"]);
    expect(results[4]!.error_message).toBe("invoice gateway not wired");
    expect(results[6]!.failure_type).toBe("error");
  });

  it("is detected by its root element, NUnit 2 or 3", () => {
    expect(detectNunit(fixtureText("nunit", "nunit2-TestResult.xml"), "r.xml")).toBe(true);
    expect(detectNunit(fixtureText("nunit", "nunit3-TestResult.xml"), "r.xml")).toBe(true);
    expect(detectNunit("<testsuites/>", "r.xml")).toBe(false);
  });
});
