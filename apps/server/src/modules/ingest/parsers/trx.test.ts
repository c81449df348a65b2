import { ResultInputSchema } from "@assay/core";
import { describe, expect, it } from "vitest";
import { fixtureFile, fixtureText, textFile, uploadOf } from "./test-files.js";
import { detectTrx, parseTrx } from "./trx.js";
import { ReportError, type ParsedResult, type ReportFile } from "./types.js";

const SHOT = "In/0b1a4c7e-5d2f-4c39-9f4e-0d7a1e2b3c41/checkout.png";

async function parse(file: ReportFile, ...others: ReportFile[]) {
  const results: ParsedResult[] = [];
  const warnings: string[] = [];
  for await (const r of parseTrx(file, uploadOf(file, ...others), {
    warn: (w) => warnings.push(w),
  })) {
    results.push(r);
  }
  return { results, warnings };
}

describe("parseTrx", () => {
  it("reads every result, a data-driven method's rows as tests of their own", async () => {
    const { results, warnings } = await parse(fixtureFile("trx", "mstest.trx"));
    expect(results.map((r) => [r.suite_path, r.name, r.status, r.failure_type])).toEqual([
      [["Shop.Tests.CartTests"], "AddsAProduct", "passed", undefined],
      [["Shop.Tests.CartTests"], "ChecksOut", "failed", undefined],
      [["Shop.Tests.CartTests"], "CountsTheQuantity (1,1)", "passed", undefined],
      [["Shop.Tests.CartTests"], "CountsTheQuantity (2,3)", "failed", undefined],
      [["Shop.Tests.CartTests"], "CountsTheQuantity (2,3)", "failed", undefined],
      [["Shop.Tests.PaymentTests"], "PaysByInvoice", "skipped", undefined],
      [["Shop.Tests.StockTests"], "IsInconclusive", "skipped", undefined],
      [["Shop.Tests.StockTests"], "SyncsInventory", "failed", "error"],
    ]);
    expect(warnings).toEqual([]);
    for (const r of results) {
      expect(ResultInputSchema.safeParse(r).success).toBe(true);
      expect(r.file).toBe("shop.tests.dll");
    }
  });

  it("keeps message, stack, output, categories, owner, timing and result files", async () => {
    const png = textFile(SHOT, Buffer.from([0x89, 0x50]));
    const { results } = await parse(fixtureFile("trx", "mstest.trx"), png);
    const [adds, checksOut] = results;
    expect(adds).toMatchObject({
      tags: ["Smoke", "Cart"],
      properties: { owner: "qa-team" },
      console_log: "added apple x2",
      duration_ms: 12.346,
      start_time: "2026-11-28T09:00:00.200Z",
    });
    expect(checksOut).toMatchObject({
      error_message: "Assert.AreEqual failed. Expected:<3>. Actual:<2>.",
      error_stack: "at Shop.Tests.CartTests.ChecksOut() in /src/Shop.Tests/CartTests.cs:line 42",
      console_log: "opening checkout",
      console_errors: "payment service slow",
      duration_ms: 1500,
      attachments: [{ name: "checkout.png", path: SHOT }],
    });
    expect(results[5]!.error_message).toBe("invoice gateway not wired");
  });

  it("reads definitions written before the results, and warns when the counters disagree", async () => {
    const text = fixtureText("trx", "mstest.trx");
    const defs = /<TestDefinitions>[\s\S]*<\/TestDefinitions>/.exec(text)![0];
    const moved = text
      .replace(defs, "")
      .replace("<Results>", `${defs}\n<Results>`)
      .replace('total="8"', 'total="9"');
    const { results, warnings } = await parse(textFile("moved.trx", moved));
    expect(results[0]!.suite_path).toEqual(["Shop.Tests.CartTests"]);
    expect(warnings).toEqual([expect.stringContaining("say 9 tests, but it lists 8 tests")]);
  });

  it("names the line of a broken definitions section, which follows the results", async () => {
    const text = fixtureText("trx", "mstest.trx").replace(
      '<TestMethod codeBase="/src/Shop.Tests/bin/Debug/net8.0/Shop.Tests.dll" adapterTypeName="executor://mstestadapter/v2" className="Shop.Tests.StockTests" name="SyncsInventory" />',
      "<TestMethod>",
    );
    const line = text.split("\n").findIndex((l) => l.includes("<TestMethod>")) + 1;
    const error = await parse(textFile("broken.trx", text)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReportError);
    // The element after the broken one: the line in the file, not in a part of it.
    expect((error as ReportError).location.line).toBe(line + 1);
    expect((error as ReportError).message).toMatch(
      /^broken\.trx \(line \d+, column \d+\): malformed XML/,
    );
  });

  it("still finds the classes when a test's output holds the text <TestDefinitions", async () => {
    const text = fixtureText("trx", "mstest.trx").replace(
      "<StdOut>added apple x2</StdOut>",
      "<StdOut><![CDATA[dumped <TestDefinitions> here]]></StdOut>",
    );
    const { results } = await parse(textFile("cdata.trx", text));
    expect(results.map((r) => r.suite_path?.[0])).toEqual([
      "Shop.Tests.CartTests",
      "Shop.Tests.CartTests",
      "Shop.Tests.CartTests",
      "Shop.Tests.CartTests",
      "Shop.Tests.CartTests",
      "Shop.Tests.PaymentTests",
      "Shop.Tests.StockTests",
      "Shop.Tests.StockTests",
    ]);
    expect(results[0]!.console_log).toBe("dumped <TestDefinitions> here");
  });

  it("is detected by its <TestRun> root, with or without a namespace prefix", () => {
    expect(detectTrx(fixtureText("trx", "mstest.trx").slice(0, 4096), "x.trx")).toBe(true);
    expect(detectTrx('<?xml version="1.0"?><t:TestRun xmlns:t="x">', "a.xml")).toBe(true);
    expect(detectTrx("<testsuites>", "a.xml")).toBe(false);
  });
});
