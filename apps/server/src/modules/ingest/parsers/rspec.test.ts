import { ResultInputSchema } from "@assay/core";
import { describe, expect, it } from "vitest";
import { detectRspec, parseRspec } from "./rspec.js";
import { fixtureFile, fixtureText, textFile, uploadOf } from "./test-files.js";
import type { ParsedResult, ReportFile } from "./types.js";

async function parse(file: ReportFile) {
  const results: ParsedResult[] = [];
  const warnings: string[] = [];
  for await (const r of parseRspec(file, uploadOf(file), { warn: (w) => warnings.push(w) })) {
    results.push(r);
  }
  return { results, warnings };
}

describe("parseRspec on RSpec 3.12's JSON", () => {
  it("reads every example with its group, file and status: 7 examples, 2 failures, 2 pending", async () => {
    const { results, warnings } = await parse(fixtureFile("rspec", "rspec.json"));
    expect(results.map((r) => [r.suite_path, r.name, r.status])).toEqual([
      [["Cart#add"], "adds a product", "passed"],
      [["Cart#add"], "rejects a negative quantity", "failed"],
      [["Cart#add"], "counts the quantity", "passed"],
      [["Cart#add"], "counts the quantity", "failed"],
      [["Cart#checkout"], "pays by card", "skipped"],
      [["Cart#checkout"], "pays by invoice", "skipped"],
      [["Cart#checkout"], "prints a receipt", "passed"],
    ]);
    expect(warnings).toEqual([]);
    for (const r of results) {
      expect(r.file).toBe("spec/cart_spec.rb");
      expect(ResultInputSchema.safeParse(r).success).toBe(true);
    }
  });

  it("keeps the exception with its backtrace, pending messages and the line", async () => {
    const { results } = await parse(fixtureFile("rspec", "rspec.json"));
    expect(results[1]).toMatchObject({
      error_name: "ArgumentError",
      error_message: "quantity must be positive",
      error_stack: expect.stringContaining("cart_spec.rb:4:in `add'"),
      properties: { location: "spec/cart_spec.rb:18" },
    });
    expect(results[4]!.error_message).toBe("card gateway not wired");
    expect(results[5]!.error_message).toBe("Temporarily skipped with xit");
  });

  it("makes an error outside examples (a spec file that does not load) a failed result", async () => {
    const { results } = await parse(fixtureFile("rspec", "rspec-load-error.json"));
    expect(results).toEqual([
      expect.objectContaining({
        name: "errors outside of examples",
        status: "failed",
        error_stack: expect.stringContaining(
          "An error occurred while loading ./spec/broken_spec.rb",
        ),
      }),
    ]);
  });

  it("warns when the summary disagrees with the examples listed", async () => {
    const text = fixtureText("rspec", "rspec.json").replace(
      '"example_count":7',
      '"example_count":8',
    );
    const { warnings } = await parse(textFile("rspec.json", text));
    expect(warnings).toEqual([expect.stringContaining("say 8 tests, but it lists 7 tests")]);
  });

  it("is detected by its version then examples or messages", () => {
    expect(detectRspec(fixtureText("rspec", "rspec.json"), "r.json")).toBe(true);
    expect(detectRspec(fixtureText("rspec", "rspec-load-error.json"), "r.json")).toBe(true);
    expect(detectRspec('{"stats":{"passes":1},"tests":[]}', "m.json")).toBe(false);
  });
});
