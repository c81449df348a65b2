import type { ResultInput } from "@assay/core";
import { ResultInputSchema } from "@assay/core";
import { describe, expect, it } from "vitest";
import { detectCtrf, parseCtrf } from "./ctrf.js";
import { fixtureFile, fixtureText, heldFile, textFile, uploadOf } from "./test-files.js";
import type { ReportFile } from "./types.js";

const PIXEL =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

async function parse(file: ReportFile, ...others: ReportFile[]): Promise<ResultInput[]> {
  const results: ResultInput[] = [];
  for await (const result of parseCtrf(file, uploadOf(file, ...others))) results.push(result);
  return results;
}

interface Report {
  reportFormat?: string;
  specVersion?: string;
  results: { tool?: unknown; tests: Record<string, unknown>[] };
}

/** A fixture with one change, to produce a broken variant. */
function variant(name: string, change: (report: Report) => void): ReportFile {
  const report = JSON.parse(fixtureText("ctrf", name)) as Report;
  change(report);
  return textFile(name, JSON.stringify(report));
}

const summary = (results: ResultInput[]) =>
  results.map((r) => [r.suite_path?.join(" > "), r.name, r.attempt, r.status]);

describe("parseCtrf on playwright-ctrf-json-reporter 0.0.29 output", () => {
  const load = () => parse(fixtureFile("ctrf", "ctrf-report.json"));

  it("yields the earlier attempts from retryAttempts before each final one", async () => {
    const results = await load();
    expect(summary(results)).toEqual([
      ["node > calculator.spec.ts", "attaches a screenshot", 0, "passed"],
      ["node > calculator.spec.ts", "passes on retry", 0, "failed"],
      ["node > calculator.spec.ts", "passes on retry", 1, "passed"],
      ["node > calculator.spec.ts", "rounds half to even", 0, "passed"],
      ["node > calculator.spec.ts > Calculator", "adds numbers", 0, "passed"],
      ["node > calculator.spec.ts > Calculator", "multiplies in steps", 0, "passed"],
      ["node > calculator.spec.ts > Calculator > division", "divides by zero", 0, "failed"],
      ["node > calculator.spec.ts > Calculator > division", "divides by zero", 1, "failed"],
      ["node > calculator.spec.ts > Calculator > division", "rounds remainders", 0, "skipped"],
    ]);
    for (const result of results) expect(ResultInputSchema.safeParse(result).success).toBe(true);
  });

  it("keeps durations, times in seconds, errors without ANSI codes, stdout and steps", async () => {
    const results = await load();
    const [firstTry] = results.filter((r) => r.name === "passes on retry");
    expect(firstTry).toMatchObject({
      duration_ms: 9,
      error_message: expect.stringMatching(
        /^Error: fails on the first try on purpose\n\nexpect\(received\)/,
      ),
    });
    expect(firstTry?.error_message).not.toContain("\u001b");
    expect(results[0]).toMatchObject({
      start_time: "2026-11-22T13:30:59.000Z",
      end_time: "2026-11-22T13:30:59.000Z",
      duration_ms: 7,
      console_log: "attached two pixels\n",
      file: "/tmp/gen-json/ctrf/tests/calculator.spec.ts",
    });
    expect(results[4]?.tags).toEqual(["@smoke"]);
    expect(results[5]?.steps).toEqual([
      { action: "enter operands", passed: true },
      { action: "enter 6", passed: true },
      { action: "enter 7", passed: true },
      { action: "check product", passed: true },
    ]);
    expect(results[7]?.steps).toEqual([{ action: "divide", passed: false }]);
  });

  it("resolves absolute attachment paths to uploaded files", async () => {
    const shot =
      "test-results/calculator-attaches-a-screenshot-node/attachments/file-pixel-727b3f130ad250f7c5c399a221f738e9b6bdd9f9.png";
    const report = fixtureFile("ctrf", "ctrf-report.json");
    const [first] = await parse(report, textFile(shot, Buffer.from(PIXEL, "base64")));
    expect(first?.attachments).toEqual([
      { name: "file-pixel", content_type: "image/png", path: shot },
    ]);
    const [alone] = await load();
    expect(alone?.attachments?.[0]?.path).toBe(`/tmp/gen-json/ctrf/${shot}`);
  });

  it("reads the same report without reportFormat and specVersion", async () => {
    const file = variant("ctrf-report.json", (r) => {
      delete r.reportFormat;
      delete r.specVersion;
    });
    expect(summary(await parse(file))).toEqual(summary(await load()));
  });
});

describe("parseCtrf on playwright-ctrf-json-reporter 0.0.18 output (no reportFormat)", () => {
  it("keeps one result per test, numbered by its retry count, with nothing invented", async () => {
    const results = await parse(fixtureFile("ctrf", "ctrf-legacy.json"));
    expect(summary(results)).toEqual([
      ["node > calculator.spec.ts", "attaches a screenshot", 0, "passed"],
      ["node > calculator.spec.ts", "passes on retry", 1, "passed"],
      ["node > calculator.spec.ts", "rounds half to even", 0, "failed"],
      ["node > calculator.spec.ts > Calculator", "adds numbers", 0, "passed"],
      ["node > calculator.spec.ts > Calculator", "multiplies in steps", 0, "passed"],
      ["node > calculator.spec.ts > Calculator > division", "divides by zero", 1, "failed"],
      ["node > calculator.spec.ts > Calculator > division", "rounds remainders", 0, "skipped"],
    ]);
    expect(results[1]?.error_message).toBeUndefined();
  });
});

describe("parseCtrf on the hand-written spec variant", () => {
  const load = (...others: ReportFile[]) =>
    parse(fixtureFile("ctrf", "ctrf-spec-variant.json"), ...others);

  it("counts from the tests, maps pending and other to skipped, orders attempts by number", async () => {
    const results = await load();
    expect(summary(results)).toEqual([
      ["Login > Password", "logs in with a valid password", 0, "passed"],
      ["Login > Password", "locks the account after three failures", 0, "failed"],
      ["Login > Password", "locks the account after three failures", 1, "failed"],
      ["Login > Password", "locks the account after three failures", 2, "passed"],
      ["Login > Reset", "resets the password by e-mail", 0, "failed"],
      ["Login > SSO", "signs in with single sign-on", 0, "skipped"],
      ["Login > SSO", "signs in with a passkey", 0, "skipped"],
    ]);
    expect(results.slice(1, 4).map((r) => [r.test_run_test_id, r.error_message])).toEqual([
      ["lock-attempt-1", "element #banner not found"],
      ["lock-attempt-2", "timeout waiting for the lock banner"],
      ["lock-attempt-3", undefined],
    ]);
    expect(results[1]?.attachments).toEqual([
      { name: "first failure", content_type: "image/png", path: "screenshots/lock-1.png" },
    ]);
  });

  it("keeps tags, browser, labels, steps, times and the base64 screenshot", async () => {
    const results = await load(textFile("screenshots/login.png", Buffer.from(PIXEL, "base64")));
    expect(results[0]).toMatchObject({
      tags: ["@smoke", "TC-17"],
      file: "specs/login.e2e.ts",
      properties: { browser: "chrome 126", owner: "qa-team", priority: "1" },
      start_time: "2025-06-02T08:00:00.000Z",
      end_time: "2025-06-02T08:00:01.200Z",
      duration_ms: 1200,
      attachments: [
        { name: "after login", content_type: "image/png", path: "screenshots/login.png" },
      ],
    });
    expect(results[4]?.steps).toEqual([
      { action: "request a reset link", passed: false },
      { action: "open the link", passed: null },
    ]);
    expect(results[4]?.attachments).toEqual([
      { name: "screenshot", content_type: "image/png", body_base64: PIXEL },
    ]);
    expect(results[4]?.error_stack).toBe(
      "AssertionError: expected 200, got 500\n    at specs/reset.e2e.ts:12:5",
    );
  });
});

describe("parseCtrf reads the report as it streams in", () => {
  it("yields a test's results before the rest is read, and checks the rest once read", async () => {
    const test = (name: string) => JSON.stringify({ name, status: "passed", duration: 5 });
    const { file, release } = heldFile(
      "c.json",
      `{"results": {"tests": [${test("a")}, `,
      `${test("b")}]}}`,
    );
    const results = parseCtrf(file, uploadOf(file))[Symbol.asyncIterator]();
    expect((await results.next()).value).toMatchObject({ name: "a", status: "passed" });
    release();
    expect((await results.next()).value).toMatchObject({ name: "b", status: "passed" });
    // results.tool is missing, which is known only at the end: the upload is refused then.
    await expect(results.next()).rejects.toThrow(
      "c.json (at $.results.tool): expected an object, but it is missing",
    );
  });
});

describe("parseCtrf refuses bad input", () => {
  it("says what it expected from JSON that is not CTRF", async () => {
    await expect(parse(textFile("c.json", "[1, 2]"))).rejects.toThrow(
      "c.json: not a CTRF report: expected an object with results.tool and results.tests",
    );
  });

  it("names the JSON path of a missing or wrong field", async () => {
    const noTool = variant("ctrf-legacy.json", (r) => delete r.results.tool);
    await expect(parse(noTool)).rejects.toThrow(
      "ctrf-legacy.json (at $.results.tool): expected an object, but it is missing",
    );
    const badStatus = variant("ctrf-legacy.json", (r) => {
      if (r.results.tests[2]) r.results.tests[2].status = "broken";
    });
    await expect(parse(badStatus)).rejects.toThrow(
      'ctrf-legacy.json (at $.results.tests[2].status): expected one of "passed", "failed", "skipped", "pending", "other", got the string "broken"',
    );
    const textDuration = variant("ctrf-legacy.json", (r) => {
      if (r.results.tests[0]) r.results.tests[0].duration = "100";
    });
    await expect(parse(textDuration)).rejects.toThrow(
      'ctrf-legacy.json (at $.results.tests[0].duration): expected a number, got the string "100"',
    );
    const numberSuite = variant("ctrf-legacy.json", (r) => {
      if (r.results.tests[0]) r.results.tests[0].suite = 7;
    });
    await expect(parse(numberSuite)).rejects.toThrow(
      "ctrf-legacy.json (at $.results.tests[0].suite): expected a string or an array of strings",
    );
  });

  it("refuses a screenshot that is not base64", async () => {
    const file = variant("ctrf-spec-variant.json", (r) => {
      if (r.results.tests[4]) r.results.tests[4].screenshot = "<svg onload=alert(1)>";
    });
    await expect(parse(file)).rejects.toThrow(
      "ctrf-spec-variant.json (at $.results.tests[4].screenshot): screenshot is not valid base64",
    );
  });

  it("keeps URL and traversal attachment paths as given, never fetching or resolving them", async () => {
    const file = variant("ctrf-spec-variant.json", (r) => {
      const test = r.results.tests[0];
      if (test)
        test.attachments = [
          {
            name: "metadata",
            contentType: "text/plain",
            path: "http://169.254.169.254/latest/meta-data",
          },
          { name: "passwd", contentType: "text/plain", path: "../../../../etc/passwd" },
        ];
    });
    const [first] = await parse(file, textFile("etc/passwd", "root:x:0:0"));
    expect(first?.attachments?.map((a) => a.path)).toEqual([
      "http://169.254.169.254/latest/meta-data",
      "../../../../etc/passwd",
    ]);
  });

  it("refuses prototype pollution in extra maps", async () => {
    const text =
      '{"results": {"tool": {"name": "x"}, "tests": [], "extra": {"__proto__": {"admin": true}}}}';
    await expect(parse(textFile("c.json", text))).rejects.toThrow(
      "c.json: JSON with __proto__ or constructor.prototype keys is refused",
    );
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });
});

describe("detectCtrf", () => {
  it("claims its fixtures and none of the other JSON formats", () => {
    const head = (format: string, name: string) => fixtureText(format, name).slice(0, 4096);
    expect(detectCtrf(head("ctrf", "ctrf-report.json"), "r.json")).toBe(true);
    expect(detectCtrf(head("ctrf", "ctrf-legacy.json"), "r.json")).toBe(true);
    expect(detectCtrf(head("ctrf", "ctrf-spec-variant.json"), "r.json")).toBe(true);
    expect(detectCtrf(head("cucumber", "cucumber-report.json"), "r.json")).toBe(false);
    expect(detectCtrf(head("playwright", "report.json"), "r.json")).toBe(false);
    expect(detectCtrf(head("mocha", "mocha-report.json"), "r.json")).toBe(false);
  });
});

describe("parseCtrf compares the summary with the tests listed", () => {
  async function warningsOf(file: ReportFile): Promise<string[]> {
    const warnings: string[] = [];
    const warn = (message: string) => warnings.push(message);
    for await (const _ of parseCtrf(file, uploadOf(file), { warn })) void _;
    return warnings;
  }

  it("says nothing when they agree (playwright-ctrf-json-reporter, a flaky test included)", async () => {
    expect(await warningsOf(fixtureFile("ctrf", "ctrf-report.json"))).toEqual([]);
    expect(await warningsOf(fixtureFile("ctrf", "ctrf-legacy.json"))).toEqual([]);
  });

  it("gives both numbers and the likely cause when the summary counts more tests", async () => {
    const file = variant("ctrf-report.json", (report) => {
      const results = report.results as Report["results"] & { summary: Record<string, number> };
      results.summary.tests = 9;
      results.summary.pending = 2;
    });
    expect(await warningsOf(file)).toEqual([
      "ctrf-report.json: the report's totals say 9 tests, 3 skipped, but it lists 7 tests, 1 skipped; " +
        "the 7 tests listed are stored. Likely cause: the reporter was configured to leave " +
        "skipped or pending tests out of the file.",
    ]);
  });
});
