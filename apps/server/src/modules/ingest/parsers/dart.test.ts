import { ResultInputSchema } from "@assay/core";
import { describe, expect, it } from "vitest";
import { detectDart, parseDart } from "./dart.js";
import { fixtureFile, fixtureText, textFile, uploadOf } from "./test-files.js";
import type { ParsedResult, ReportFile } from "./types.js";

async function parse(file: ReportFile): Promise<ParsedResult[]> {
  const results: ParsedResult[] = [];
  for await (const r of parseDart(file, uploadOf(file))) results.push(r);
  return results;
}

describe("parseDart on the JSON reporter protocol", () => {
  it("reads the visible tests with their groups, leaving the runner's hidden ones out", async () => {
    const results = await parse(fixtureFile("dart", "dart-test.json"));
    expect(results.map((r) => [r.file, r.suite_path, r.name, r.status])).toEqual([
      ["test/cart_test.dart", ["Cart"], "adds a product", "passed"],
      ["test/cart_test.dart", ["Cart"], "rejects a negative quantity", "failed"],
      ["test/cart_test.dart", ["Cart", "counts the quantity"], "of 1", "passed"],
      ["test/cart_test.dart", ["Cart", "counts the quantity"], "of 2", "failed"],
      ["test/cart_test.dart", ["Cart", "counts the quantity"], "of 2", "failed"],
      ["test/cart_test.dart", ["Cart"], "pays by invoice", "skipped"],
      // A hidden test that failed: the file did not load.
      ["test/broken_test.dart", [], "loading test/broken_test.dart", "failed"],
    ]);
    expect(new Set(results.map((r) => r.testKey)).size).toBe(7);
    for (const r of results) expect(ResultInputSchema.safeParse(r).success).toBe(true);
  });

  it("keeps prints, errors (failure or error), skip reasons and timing", async () => {
    const results = await parse(fixtureFile("dart", "dart-test.json"));
    expect(results[0]).toMatchObject({ console_log: "added apple x2", duration_ms: 5 });
    expect(results[1]).toMatchObject({
      error_message: "Expected: <1>\n  Actual: <-1>\nquantity must be positive",
      error_stack: expect.stringContaining("test/cart_test.dart 21:7"),
    });
    expect(results[1]!.failure_type).toBeUndefined();
    expect(results[4]).toMatchObject({
      failure_type: "error",
      error_message: "Bad state: cart is locked",
    });
    expect(results[5]!.error_message).toBe("invoice gateway not wired");
  });

  it("passes over lines that are no event (flutter --machine's daemon messages)", async () => {
    const text = `[{"event":"test.startedProcess","params":{}}]\n${fixtureText("dart", "dart-test.json")}`;
    expect(await parse(textFile("flutter.json", text))).toHaveLength(7);
  });

  it("is detected by its first event", () => {
    expect(detectDart(fixtureText("dart", "dart-test.json"), "d.json")).toBe(true);
    expect(detectDart('{"Action":"run","Package":"p"}', "g.json")).toBe(false);
  });
});
