import type { ResultInput } from "@assay/core";
import { ResultInputSchema } from "@assay/core";
import { describe, expect, it } from "vitest";
import { detectPlaywright, parsePlaywright } from "./playwright.js";
import { fixtureFile, fixtureText, heldFile, textFile, uploadOf } from "./test-files.js";
import type { ReportFile } from "./types.js";

const PIXEL =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const SHOT =
  "test-results/calculator-attaches-a-screenshot-node/attachments/file-pixel-e727e053ec3a51c6fcadac9c888d87ea73009b13.png";

async function parse(file: ReportFile, ...others: ReportFile[]): Promise<ResultInput[]> {
  const results: ResultInput[] = [];
  for await (const result of parsePlaywright(file, uploadOf(file, ...others))) results.push(result);
  return results;
}

type Json = Record<string, unknown> & {
  suites: Json[];
  specs: Json[];
  tests: Json[];
  results: Json[];
};

/** The real report with one change, to produce a broken variant. */
function variant(change: (report: Json) => void): ReportFile {
  const report = JSON.parse(fixtureText("playwright", "report.json")) as Json;
  change(report);
  return textFile("report.json", JSON.stringify(report));
}

const load = () => parse(fixtureFile("playwright", "report.json"));
const named = (results: ResultInput[], name: string) => results.filter((r) => r.name === name);

describe("parsePlaywright on @playwright/test 1.65.1 output", () => {
  it("yields one valid result per attempt with the final status from the test's outcome", async () => {
    const results = await load();
    expect(results.map((r) => [r.suite_path?.join(" › "), r.name, r.attempt, r.status])).toEqual([
      ["calculator.spec.ts", "attaches a screenshot", 0, "passed"],
      ["calculator.spec.ts", "passes on retry", 0, "failed"],
      ["calculator.spec.ts", "passes on retry", 1, "passed"],
      ["calculator.spec.ts", "rounds half to even", 0, "passed"],
      ["calculator.spec.ts › Calculator", "adds numbers", 0, "passed"],
      ["calculator.spec.ts › Calculator", "multiplies in steps", 0, "passed"],
      ["calculator.spec.ts › Calculator › division", "divides by zero", 0, "failed"],
      ["calculator.spec.ts › Calculator › division", "divides by zero", 1, "failed"],
      ["calculator.spec.ts › Calculator › division", "rounds remainders", 0, "skipped"],
    ]);
    for (const result of results) {
      expect(ResultInputSchema.safeParse(result).success).toBe(true);
      expect(result.file).toBe("calculator.spec.ts");
      expect(result.properties?.project).toBe("node");
    }
  });

  it("keeps times, durations and tags as reported", async () => {
    const results = await load();
    const [first, retry] = named(results, "passes on retry");
    expect(first).toMatchObject({
      start_time: "2026-11-22T13:30:54.605Z",
      end_time: "2026-11-22T13:30:54.613Z",
      duration_ms: 8,
    });
    expect(retry).toMatchObject({ start_time: "2026-11-22T13:30:55.303Z", duration_ms: 7 });
    expect(named(results, "adds numbers")[0]?.tags).toEqual(["smoke"]);
    expect(named(results, "multiplies in steps")[0]?.tags).toEqual(["TC123", "math"]);
  });

  it("strips ANSI codes from errors and keeps the stack", async () => {
    const [first] = named(await load(), "divides by zero");
    expect(first?.error_message).toBe(
      "Error: division by zero should be finite\n\nexpect(received).toBe(expected) // Object.is equality\n\nExpected: 0\nReceived: Infinity",
    );
    expect(first?.error_name).toBe("Error");
    expect(first?.error_stack).toContain(
      "Received: Infinity\n    at /tmp/gen-json/playwright/tests/calculator.spec.ts:23:60",
    );
    expect(first?.error_stack).not.toContain("\u001b");
  });

  it("flattens nested test.step into steps and marks the failing one", async () => {
    const results = await load();
    expect(named(results, "multiplies in steps")[0]?.steps).toEqual([
      { action: "enter operands", passed: true, duration_ms: 11 },
      { action: "enter 6", passed: true, duration_ms: 6 },
      { action: "enter 7", passed: true, duration_ms: 1 },
      { action: "check product", passed: true, duration_ms: 1 },
    ]);
    expect(named(results, "divides by zero")[0]?.steps).toEqual([
      { action: "divide", passed: false, duration_ms: 10 },
    ]);
  });

  it("keeps inline bodies, stdout and annotations", async () => {
    const [result] = named(await load(), "attaches a screenshot");
    expect(result?.attachments?.[0]).toEqual({
      name: "inline-pixel",
      content_type: "image/png",
      body_base64: PIXEL,
    });
    expect(result?.console_log).toBe("attached two pixels\n");
    expect(result?.properties).toEqual({ project: "node", issue: "ASSAY-7" });
  });

  it("resolves absolute attachment paths to the uploaded files", async () => {
    const report = fixtureFile("playwright", "report.json");
    const upload = (name: string) => textFile(name, Buffer.from(PIXEL, "base64"));
    const inRoot = named(await parse(report, upload(SHOT)), "attaches a screenshot")[0];
    expect(inRoot?.attachments?.[1]).toEqual({
      name: "file-pixel",
      content_type: "image/png",
      path: SHOT,
    });
    // Inside a zip the report and its test-results folder may sit below a common folder.
    const zipped = { ...report, name: "run-7/report.json" };
    const inFolder = named(
      await parse(zipped, upload(`run-7/${SHOT}`)),
      "attaches a screenshot",
    )[0];
    expect(inFolder?.attachments?.[1]?.path).toBe(`run-7/${SHOT}`);
    // Not uploaded: the path stays as given and the ingest layer reports it missing.
    const missing = named(await load(), "attaches a screenshot")[0];
    expect(missing?.attachments?.[1]?.path).toBe(`/tmp/gen-json/playwright/${SHOT}`);
  });

  it("prefixes the project when the run had several", async () => {
    const file = variant((r) => {
      const config = r.config as { projects: unknown[] };
      config.projects.push({ id: "webkit", name: "webkit" });
    });
    const [first] = await parse(file);
    expect(first?.suite_path).toEqual(["node", "calculator.spec.ts"]);
  });
});

describe("parsePlaywright reads the report as it streams in", () => {
  it("yields a file suite's results before the rest is read, knowing the projects", async () => {
    const suite = (title: string) =>
      JSON.stringify({
        title: `${title}.spec.ts`,
        specs: [
          {
            title,
            tests: [{ projectName: "chromium", results: [{ status: "passed", retry: 0 }] }],
          },
        ],
      });
    const { file, release } = heldFile(
      "r.json",
      `{"config": {"projects": [{"name": "chromium"}, {"name": "webkit"}]}, "suites": [${suite("one")}, `,
      `${suite("two")}], "errors": [], "stats": {}}`,
    );
    const results = parsePlaywright(file, uploadOf(file))[Symbol.asyncIterator]();
    // The config came first, so the first result already has its project in the suite path.
    expect((await results.next()).value).toMatchObject({
      name: "one",
      suite_path: ["chromium", "one.spec.ts"],
      status: "passed",
    });
    release();
    expect((await results.next()).value).toMatchObject({ name: "two" });
    expect((await results.next()).done).toBe(true);
  });
});

describe("parsePlaywright refuses bad input", () => {
  it("says what it expected from JSON that is not Playwright's", async () => {
    await expect(parse(textFile("r.json", '{"results": {"tool": {"name": "x"}}}'))).rejects.toThrow(
      "r.json: not a Playwright JSON report: expected an object with config and suites, as written by `--reporter=json`",
    );
  });

  it("names the line and column of a syntax error", async () => {
    await expect(parse(textFile("r.json", '{"config": {}, "suites": [}'))).rejects.toThrow(
      "r.json (line 1, column 27): invalid JSON: value expected",
    );
  });

  it("names the JSON path of a missing or wrong field", async () => {
    const noRetry = variant((r) => {
      delete r.suites[0]?.suites[0]?.specs[0]?.tests[0]?.results[0]?.retry;
    });
    await expect(parse(noRetry)).rejects.toThrow(
      "report.json (at $.suites[0].suites[0].specs[0].tests[0].results[0].retry): expected a number, but it is missing",
    );
    const badStatus = variant((r) => {
      const result = r.suites[0]?.specs[0]?.tests[0]?.results[0];
      if (result) result.status = "exploded";
    });
    await expect(parse(badStatus)).rejects.toThrow(
      'report.json (at $.suites[0].specs[0].tests[0].results[0].status): expected one of "passed", "failed", "timedOut", "skipped", "interrupted", got the string "exploded"',
    );
  });

  it("refuses an attachment body that is not base64", async () => {
    const file = variant((r) => {
      const attachment = (r.suites[0]?.specs[0]?.tests[0]?.results[0]?.attachments as Json[])[0];
      if (attachment) attachment.body = "<html><script>alert(1)</script>";
    });
    await expect(parse(file)).rejects.toThrow(
      "report.json (at $.suites[0].specs[0].tests[0].results[0].attachments[0].body): attachment body is not valid base64",
    );
  });

  it("never resolves traversal paths, even to an uploaded file", async () => {
    const file = variant((r) => {
      const attachment = (r.suites[0]?.specs[0]?.tests[0]?.results[0]?.attachments as Json[])[1];
      if (attachment) attachment.path = "../../etc/passwd";
    });
    const [result] = await parse(file, textFile("etc/passwd", "root:x:0:0"));
    expect(result?.attachments?.[1]?.path).toBe("../../etc/passwd");
  });

  it("refuses prototype pollution", async () => {
    await expect(
      parse(
        textFile("r.json", '{"config": {"constructor": {"prototype": {"x": 1}}}, "suites": []}'),
      ),
    ).rejects.toThrow("r.json: JSON with __proto__ or constructor.prototype keys is refused");
  });
});

describe("detectPlaywright", () => {
  it("claims its fixture and none of the other JSON formats", () => {
    const head = (format: string, name: string) => fixtureText(format, name).slice(0, 4096);
    expect(detectPlaywright(head("playwright", "report.json"), "r.json")).toBe(true);
    expect(detectPlaywright(head("cucumber", "cucumber-report.json"), "r.json")).toBe(false);
    expect(detectPlaywright(head("ctrf", "ctrf-report.json"), "r.json")).toBe(false);
    expect(detectPlaywright(head("ctrf", "ctrf-legacy.json"), "r.json")).toBe(false);
    expect(detectPlaywright(head("mocha", "mocha-report.json"), "r.json")).toBe(false);
    expect(detectPlaywright('{"config":{"rootDir":"/w"},"suites":[]}', "r.json")).toBe(true);
  });
});
