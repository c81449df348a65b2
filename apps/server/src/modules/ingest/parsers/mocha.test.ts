import type { ResultInput } from "@assay/core";
import { ResultInputSchema } from "@assay/core";
import { describe, expect, it } from "vitest";
import { detectMocha, parseMocha } from "./mocha.js";
import { fixtureFile, fixtureText, textFile, uploadOf } from "./test-files.js";
import type { ReportFile } from "./types.js";

async function parse(file: ReportFile): Promise<ResultInput[]> {
  const results: ResultInput[] = [];
  for await (const result of parseMocha(file, uploadOf(file))) results.push(result);
  return results;
}

type Entry = Record<string, unknown>;
interface Report {
  tests: Entry[];
  failures: Entry[];
  passes: Entry[];
  pending: Entry[];
}

/** The real report with one change, to produce a broken variant. */
function variant(change: (report: Report) => void): ReportFile {
  const report = JSON.parse(fixtureText("mocha", "mocha-report.json")) as Report;
  change(report);
  return textFile("mocha-report.json", JSON.stringify(report));
}

const FILE = "/tmp/gen-json/mocha/test/cart.spec.js";

describe("parseMocha on mocha 12.0.3 output", () => {
  const load = () => parse(fixtureFile("mocha", "mocha-report.json"));

  it("yields every test with its status from the list that holds it, then hook failures", async () => {
    const results = await load();
    expect(results.map((r) => [r.suite_path, r.name, r.attempt, r.status])).toEqual([
      [["Cart adding"], "adds a product", 0, "passed"],
      [["Cart adding"], "rejects a negative quantity", 0, "failed"],
      [["Cart adding"], "adds a gift card", 0, "skipped"],
      // Only the final attempt is in the report; currentRetry says it was the first retry.
      [["Cart adding"], "eventually syncs the cart", 1, "passed"],
      [["Cart checkout"], '"before each" hook for "pays by card"', 0, "failed"],
    ]);
    for (const result of results) {
      expect(ResultInputSchema.safeParse(result).success).toBe(true);
      expect(result.file).toBe(FILE);
    }
  });

  it("keeps the error's message, name and stack on failures only", async () => {
    const results = await load();
    expect(results[1]).toMatchObject({
      duration_ms: 1,
      error_message: "quantity must be positive\n\nfalse !== true\n",
      error_name: "AssertionError",
      error_stack: expect.stringMatching(
        /^AssertionError \[ERR_ASSERTION\]: quantity must be positive\n[\s\S]*at Context/,
      ),
    });
    expect(results[4]).toMatchObject({
      error_message: "payment service unavailable",
      error_stack: expect.stringMatching(/^Error: payment service unavailable\n\s+at Context/),
    });
    expect(results[0]?.error_message).toBeUndefined();
    // Pending tests have no duration.
    expect(results[2]?.duration_ms).toBe(0);
  });

  it("matches repeated titles one for one", async () => {
    const file = variant((r) => {
      const failed = r.failures[0] as Entry;
      r.tests.push({ ...failed });
      r.passes.push({ ...failed, err: {} });
    });
    const results = await parse(file);
    expect(
      results.filter((r) => r.name === "rejects a negative quantity").map((r) => r.status),
    ).toEqual(["failed", "passed"]);
    expect(results.at(-1)?.name).toBe('"before each" hook for "pays by card"');
  });

  it("reads the lists in any order, yielding the tests before the hook failures", async () => {
    const report = JSON.parse(fixtureText("mocha", "mocha-report.json")) as Report;
    const { tests, failures, ...rest } = report;
    const reordered = textFile("mocha-report.json", JSON.stringify({ failures, ...rest, tests }));
    expect(await parse(reordered)).toEqual(await load());
  });

  it("reads a report whose lists were trimmed, from the tests alone", async () => {
    const file = variant((r) => {
      r.failures = [];
      r.passes = [];
      r.pending = [];
    });
    expect((await parse(file)).map((r) => r.status)).toEqual([
      "passed",
      "failed",
      "skipped",
      "passed",
    ]);
  });
});

describe("parseMocha refuses bad input", () => {
  it("names the line and column of stdout mixed into the JSON", async () => {
    const text = `cart synced\n${fixtureText("mocha", "mocha-report.json")}`;
    await expect(parse(textFile("out.json", text))).rejects.toThrow(
      "out.json (line 1, column 1): invalid JSON: invalid symbol",
    );
  });

  it("says what it expected from JSON that is not Mocha's", async () => {
    await expect(
      parse(textFile("m.json", '{"stats": {"passes": 1}, "results": []}')),
    ).rejects.toThrow(
      "m.json: not a Mocha JSON report: expected an object with stats, tests, passes, failures and pending, as written by `--reporter json`",
    );
  });

  it("names the JSON path of a missing or wrong field", async () => {
    const noTitle = variant((r) => delete r.tests[3]?.fullTitle);
    await expect(parse(noTitle)).rejects.toThrow(
      "mocha-report.json (at $.tests[3].fullTitle): expected a string, but it is missing",
    );
    const badRetry = variant((r) => {
      if (r.failures[1]) r.failures[1].currentRetry = -1;
    });
    await expect(parse(badRetry)).rejects.toThrow(
      "mocha-report.json (at $.failures[1].currentRetry): expected a number of at least 0, got -1",
    );
    const errMessage = variant((r) => {
      if (r.tests[1]) r.tests[1].err = { message: { toString: "x" } };
    });
    await expect(parse(errMessage)).rejects.toThrow(
      "mocha-report.json (at $.tests[1].err.message): expected a string, got an object",
    );
  });

  it("refuses prototype pollution and deep nesting", async () => {
    await expect(parse(textFile("m.json", '{"tests": [], "__proto__": {"x": 1}}'))).rejects.toThrow(
      "m.json: JSON with __proto__ or constructor.prototype keys is refused",
    );
    const deep = `{"tests": [{"err": ${'{"a":'.repeat(70)}1${"}".repeat(70)}}]}`;
    await expect(parse(textFile("m.json", deep))).rejects.toThrow(/nested deeper than 64 levels/);
  });
});

describe("detectMocha", () => {
  it("claims its fixture and none of the other JSON formats", () => {
    const head = (format: string, name: string) => fixtureText(format, name).slice(0, 4096);
    expect(detectMocha(head("mocha", "mocha-report.json"), "r.json")).toBe(true);
    expect(detectMocha(head("cucumber", "cucumber-report.json"), "r.json")).toBe(false);
    expect(detectMocha(head("ctrf", "ctrf-report.json"), "r.json")).toBe(false);
    expect(detectMocha(head("ctrf", "ctrf-legacy.json"), "r.json")).toBe(false);
    expect(detectMocha(head("playwright", "report.json"), "r.json")).toBe(false);
    // mochawesome: the same stats, but results instead of tests
    const mochawesome =
      '{"stats":{"suites":1,"tests":1,"passes":1,"pending":0,"failures":0},"results":[{"uuid":"x"}]}';
    expect(detectMocha(mochawesome, "r.json")).toBe(false);
  });
});

describe("parseMocha compares stats with the lists", () => {
  async function warningsOf(file: ReportFile): Promise<string[]> {
    const warnings: string[] = [];
    const warn = (message: string) => warnings.push(message);
    for await (const _ of parseMocha(file, uploadOf(file), { warn })) void _;
    return warnings;
  }

  it("says nothing when they agree (the real reports, one with two tests of one title)", async () => {
    expect(await warningsOf(fixtureFile("mocha", "mocha-report.json"))).toEqual([]);
    expect(await warningsOf(fixtureFile("mocha", "mocha-namesakes.json"))).toEqual([]);
  });

  it("gives both numbers when stats count tests the lists do not hold", async () => {
    const warnings = await warningsOf(
      variant((report) => {
        const stats = (report as unknown as { stats: Record<string, number> }).stats;
        stats.tests! += 2;
        stats.pending! += 2;
      }),
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^mocha-report\.json: the report's totals say (\d+) tests, (\d+) skipped, but it lists (\d+) tests, (\d+) skipped; the \3 tests listed are stored\. Likely cause: the reporter was configured to leave skipped or pending tests out of the file\.$/,
    );
  });
});
