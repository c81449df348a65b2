import { ResultInputSchema } from "@assay/core";
import { describe, expect, it } from "vitest";
import { fixtureFile, fixtureText, textFile, uploadOf } from "./test-files.js";
import { detectTestng, parseTestng } from "./testng.js";
import type { ParsedResult, ReportFile } from "./types.js";

async function parse(file: ReportFile) {
  const results: ParsedResult[] = [];
  const warnings: string[] = [];
  for await (const r of parseTestng(file, uploadOf(file), { warn: (w) => warnings.push(w) })) {
    results.push(r);
  }
  return { results, warnings };
}

const PATH = ["Command line suite", "Command line test", "shop.CartTest"];

describe("parseTestng on TestNG 6.9.12's testng-results.xml", () => {
  it("reads every test method, data-provider rows apart, with TestNG's own counts", async () => {
    const { results, warnings } = await parse(fixtureFile("testng", "testng-results.xml"));
    expect(results.map((r) => [r.name, r.status])).toEqual([
      ["countsTheQuantity(1, 1)", "passed"],
      ["countsTheQuantity(2, 3)", "failed"],
      ["countsTheQuantity(2, 3)", "failed"],
      ["rejectsNegativeQuantity", "failed"],
      ["addsAProduct", "passed"],
      ["paysByInvoice", "skipped"],
      // TestNG 6.9 writes a retried attempt as a plain SKIP: counted as it counts it.
      ["syncsEventually", "passed"],
      ["syncsEventually", "skipped"],
      ["checksOut", "skipped"],
    ]);
    // "Total tests run: 9, Failures: 3, Skips: 3"
    expect(warnings).toEqual([]);
    expect(new Set(results.map((r) => r.testKey)).size).toBe(9);
    for (const r of results) {
      expect(r.suite_path).toEqual(PATH);
      expect(ResultInputSchema.safeParse(r).success).toBe(true);
    }
  });

  it("keeps groups, description, reporter output, exceptions and configuration methods as steps", async () => {
    const { results } = await parse(fixtureFile("testng", "testng-results.xml"));
    expect(results[0]!.steps).toEqual([
      { action: "openDatabase", passed: true, duration_ms: 40, before: true },
      { action: "emptyCart", passed: true, duration_ms: 0, before: true },
    ]);
    expect(results[4]).toMatchObject({
      tags: ["smoke", "cart"],
      description: "adds a product to the cart",
      console_log: "added apple x2",
    });
    expect(results[1]).toMatchObject({
      error_name: "java.lang.AssertionError",
      error_message: "expected [3] but found [2]",
      error_stack: expect.stringContaining("at shop.CartTest.countsTheQuantity(CartTest.java:57)"),
    });
    expect(results[5]).toMatchObject({ error_message: "invoice gateway not wired" });
    // An @AfterMethod comes before the next @BeforeMethod: both are the next test's steps.
    expect(results[7]!.steps!.map((step) => step.action)).toEqual(["closeCart", "emptyCart"]);
  });

  it("makes the configuration methods after a class's last test its after steps", async () => {
    const text = fixtureText("testng", "testng-results.xml").replace(
      "</class>",
      '<test-method is-config="true" signature="dropDatabase()" name="dropDatabase" duration-ms="5" status="FAIL"></test-method></class>',
    );
    const { results } = await parse(textFile("testng-results.xml", text));
    expect(results.at(-1)!.steps).toEqual([
      { action: "dropDatabase", passed: false, duration_ms: 5, before: false },
    ]);
  });

  it('makes TestNG 7\'s retried="true" attempts earlier attempts of the method, in either order', async () => {
    // TestNG 7 marks the retried attempt; 6.9 (the real run) does not, so the mark is added.
    const text = fixtureText("testng", "testng-results.xml").replace(
      /(<test-method signature="syncsEventually\(\)[^>]*?) status="SKIP">/,
      '$1 status="SKIP" retried="true">',
    );
    const { results } = await parse(textFile("testng-results.xml", text));
    const syncs = results.filter((r) => r.name === "syncsEventually");
    expect(syncs.map((r) => [r.status, r.attempt])).toEqual([
      ["passed", 1],
      ["failed", 0],
    ]);
    expect(syncs[0]!.testKey).toBe(syncs[1]!.testKey);
  });

  it("is detected by its <testng-results> root", () => {
    expect(detectTestng(fixtureText("testng", "testng-results.xml"), "r.xml")).toBe(true);
    expect(detectTestng("<assemblies/>", "r.xml")).toBe(false);
  });
});
