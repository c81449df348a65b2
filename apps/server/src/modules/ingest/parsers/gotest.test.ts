import { ResultInputSchema } from "@assay/core";
import { describe, expect, it } from "vitest";
import { detectGoTest, parseGoTest } from "./gotest.js";
import { fixtureFile, fixtureText, heldFile, textFile, uploadOf } from "./test-files.js";
import type { ParsedResult, ReportFile } from "./types.js";

async function parse(file: ReportFile): Promise<ParsedResult[]> {
  const results: ParsedResult[] = [];
  for await (const r of parseGoTest(file, uploadOf(file))) results.push(r);
  return results;
}

const CALC = "example.com/shop/calc";

describe("parseGoTest on go 1.19's test2json stream", () => {
  it("reads tests and subtests, and a package that failed to build", async () => {
    const results = await parse(fixtureFile("gotest", "go-test.json"));
    expect(results.map((r) => [r.suite_path, r.name, r.status])).toEqual([
      [["example.com/shop/broken"], "[build failed]", "failed"],
      [[CALC], "TestAdd", "passed"],
      [[CALC, "TestAddTable"], "zero", "passed"],
      [[CALC, "TestAddTable"], "negative", "passed"],
      [[CALC, "TestAddTable"], "wrong", "failed"],
      [[CALC], "TestAddTable", "failed"],
      [[CALC], "TestSkipped", "skipped"],
      [[CALC], "TestPrints", "passed"],
      [[CALC], "TestPanics", "failed"],
    ]);
    for (const r of results) expect(ResultInputSchema.safeParse(r).success).toBe(true);
  });

  it("keeps each test's output, its failure line, a panic, and the skip's reason", async () => {
    const results = await parse(fixtureFile("gotest", "go-test.json"));
    const byName = new Map(results.map((r) => [r.name, r]));
    expect(byName.get("wrong")).toMatchObject({
      error_message: "calc_test.go:24: Add(1, 1) = 2, want 3",
    });
    expect(byName.get("TestPanics")).toMatchObject({
      error_message: "panic: assignment to entry in nil map",
      error_stack: expect.stringContaining("goroutine"),
    });
    expect(byName.get("TestSkipped")!.error_message).toBe("calc_test.go:32: needs SHOP_DB");
    expect(byName.get("TestPrints")!.console_log).toBe(
      "hello from stdout\n    calc_test.go:38: a log line",
    );
    expect(byName.get("[build failed]")).toMatchObject({ failure_type: "error" });
  });

  it("reads a stream saved with a byte-order mark and CRLF line ends alike", async () => {
    const text = fixtureText("gotest", "go-test.json").replace(/\n/g, "\r\n");
    const results = await parse(textFile("go.json", `\uFEFF${text}`));
    expect(results).toHaveLength(9);
    expect(results[0]!.name).toBe("[build failed]");
  });

  it("numbers -count=2 runs as attempts of each test", async () => {
    const results = await parse(fixtureFile("gotest", "go-test-count2.json"));
    expect(results.map((r) => [r.name, r.attempt, r.status])).toEqual([
      ["TestAdd", 0, "passed"],
      ["TestSkipped", 0, "skipped"],
      ["TestAdd", 1, "passed"],
      ["TestSkipped", 1, "skipped"],
    ]);
  });

  it("yields a test as soon as its end event is read", async () => {
    const lines = fixtureText("gotest", "gotestsum.json").split("\n");
    const { file, release } = heldFile(
      "go.json",
      `${lines.slice(0, 4).join("\n")}\n`,
      lines.slice(4).join("\n"),
    );
    const results = parseGoTest(file, uploadOf(file))[Symbol.asyncIterator]();
    expect((await results.next()).value).toMatchObject({ name: "TestAdd", status: "passed" });
    release();
    let count = 1;
    while (!(await results.next()).done) count++;
    expect(count).toBe(8);
  });

  it("is detected by its first event, also after go 1.19's plain build-failure line", () => {
    expect(detectGoTest(fixtureText("gotest", "go-test.json"), "go.json")).toBe(true);
    expect(detectGoTest('{"Time":"x","Action":"start","Package":"p"}\n', "o.log")).toBe(true);
    expect(detectGoTest('{"type":"start","protocolVersion":"0.1.1"}', "d.json")).toBe(false);
  });
});
