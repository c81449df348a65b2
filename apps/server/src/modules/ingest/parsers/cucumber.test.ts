import { readdirSync, readFileSync } from "node:fs";
import type { ResultInput } from "@assay/core";
import { ResultInputSchema } from "@assay/core";
import { describe, expect, it } from "vitest";
import { detectCtrf } from "./ctrf.js";
import { detectCucumber, parseCucumber } from "./cucumber.js";
import { detectMocha } from "./mocha.js";
import { detectPlaywright } from "./playwright.js";
import { FIXTURES_DIR, fixtureFile, fixtureText, textFile, uploadOf } from "./test-files.js";
import type { ReportFile } from "./types.js";

const PIXEL =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

async function parse(file: ReportFile): Promise<ResultInput[]> {
  const results: ResultInput[] = [];
  for await (const result of parseCucumber(file, uploadOf(file))) results.push(result);
  return results;
}

/** The real report with one change, to produce a broken variant. */
function variant(change: (report: unknown[]) => void): ReportFile {
  const report = JSON.parse(fixtureText("cucumber", "cucumber-report.json")) as unknown[];
  change(report);
  return textFile("cucumber-report.json", JSON.stringify(report));
}

describe("parseCucumber on cucumber-js 12.9.0 output", () => {
  const load = () => parse(fixtureFile("cucumber", "cucumber-report.json"));

  it("yields one valid result per scenario and outline example", async () => {
    const results = await load();
    expect(results.map((r) => [r.name, r.status])).toEqual([
      ["Add a product", "passed"],
      ["Remove more than the cart holds", "failed"],
      ["Apply a voucher", "skipped"],
      ["Pay by invoice", "failed"],
      ["Add several products (example 1)", "passed"],
      ["Add several products (example 2)", "passed"],
    ]);
    for (const result of results) {
      expect(ResultInputSchema.safeParse(result).success).toBe(true);
      expect(result.suite_path).toEqual(["Shopping cart"]);
      expect(result.title).toBe("Shopping cart");
      expect(result.file).toBe("features/cart.feature");
      expect(result.attempt).toBeUndefined();
    }
    expect(results[4]?.scenario).toBe("Add several products");
  });

  it("merges feature and scenario tags without duplicates", async () => {
    const [first, second] = await load();
    expect(first?.tags).toEqual(["@shop", "@smoke", "@TC42"]);
    expect(second?.tags).toEqual(["@shop"]);
  });

  it("turns the Before hook and the Background into before steps", async () => {
    const [first] = await load();
    expect(first?.steps).toEqual([
      { action: "Before", passed: true, location: undefined, duration_ms: 1.059292, before: true },
      {
        action: "Given an empty cart",
        passed: true,
        location: "features/step_definitions/steps.js:14",
        duration_ms: 0.129527,
        before: true,
      },
      {
        action: 'When I add 2 "apples"',
        passed: true,
        location: "features/step_definitions/steps.js:18",
        duration_ms: 0.354339,
        before: false,
      },
      {
        action: "Then the cart holds 2 items",
        passed: true,
        location: "features/step_definitions/steps.js:28",
        duration_ms: 0.094843,
        before: false,
      },
    ]);
    // nanoseconds: 1059292 + 129527 + 354339 + 94843
    expect(first?.duration_ms).toBeCloseTo(1.638001, 9);
  });

  it("finds the Background in outline examples too", async () => {
    const results = await load();
    expect(results[5]?.steps?.map((s) => [s.action, s.before])).toEqual([
      ["Before", true],
      ["Given an empty cart", true],
      ['When I add 3 "kiwi"', false],
      ["Then the cart holds 3 items", false],
    ]);
  });

  it("names the failing step and keeps its stack", async () => {
    const failed = (await load())[1];
    expect(failed?.error_message).toBe(
      'step "And I remove 3 items" failed: Error: cannot remove 3 items from a cart of 1',
    );
    expect(failed?.error_stack).toMatch(/^Error: cannot remove 3 items.*\n\s+at World/);
    expect(failed?.steps?.map((s) => s.passed)).toEqual([true, true, true, false, null]);
  });

  it("fails a scenario with an undefined step and skips a pending one", async () => {
    const results = await load();
    expect(results[3]?.error_message).toBe(
      'step "Then an invoice is sent" is undefined: no step definition matches it',
    );
    expect(results[3]?.steps?.[3]).toMatchObject({
      passed: null,
      location: "features/cart.feature:24",
    });
    expect(results[2]?.error_message).toBe('step "When I apply the voucher "SPRING"" is pending');
    expect(results[2]?.steps?.map((s) => s.passed)).toEqual([true, true, null, null]);
  });

  it("keeps embeddings as inline attachments on their step", async () => {
    const results = await load();
    expect(results[0]?.attachments).toEqual([
      {
        name: "attachment-1.png",
        content_type: "image/png",
        step_index: 2,
        // cucumber-js names no embedding and gives no start: described by its step, undated.
        description: 'When I add 2 "apples"',
        body_base64: PIXEL,
      },
    ]);
    expect(results[3]?.attachments).toEqual([
      {
        name: "attachment-1.txt",
        content_type: "text/plain",
        step_index: 2,
        description: "When I pay by invoice",
        body_base64: Buffer.from("invoice requested").toString("base64"),
      },
    ]);
    expect(results[1]?.attachments).toHaveLength(1);
  });
});

describe("parseCucumber on features with wdio-cucumberjs-json-reporter's metadata", () => {
  it("fills the browser version and platform from the feature's metadata", async () => {
    const metadata = {
      browser: { name: "chrome", version: "126.0.6478.126" },
      device: "Local test machine",
      platform: { name: "linux", version: "Debian 12" },
    };
    const results = await parse(
      variant((report) => ((report[0] as Record<string, unknown>).metadata = metadata)),
    );
    for (const result of results) {
      expect(result).toMatchObject({ chrome_version: "126.0.6478.126", platform: "linux" });
    }
  });

  it("leaves them out, and keeps the report, when the metadata has another shape", async () => {
    const results = await parse(
      variant((report) => ((report[0] as Record<string, unknown>).metadata = { browser: "x" })),
    );
    expect(results).toHaveLength(6);
    expect(results[0]).not.toHaveProperty("chrome_version");
    expect(results[0]).not.toHaveProperty("platform");
  });
});

describe("parseCucumber on the JVM / Ruby shape", () => {
  const jvm = [
    {
      uri: "classpath:features/login.feature",
      name: "Login",
      keyword: "Feature",
      tags: [{ name: "@web" }],
      elements: [
        {
          type: "background",
          keyword: "Background",
          name: "",
          line: 3,
          steps: [
            {
              keyword: "Given ",
              name: "the login page",
              line: 4,
              result: { status: "PASSED", duration: 2_000_000 },
            },
          ],
        },
        {
          type: "scenario",
          keyword: "Scenario",
          name: "Wrong password",
          line: 6,
          start_timestamp: "2025-05-01T10:00:00.000Z",
          tags: [{ name: "@web" }, { name: "@TC7" }],
          before: [
            {
              match: { location: "Hooks.open()" },
              result: { status: "passed", duration: 1_000_000 },
            },
          ],
          steps: [
            {
              keyword: "When ",
              name: "I log in with a wrong password",
              line: 7,
              match: { location: "LoginSteps.logIn()" },
              result: {
                status: "FAILED",
                duration: 3_000_000,
                error_message: "java.lang.AssertionError: still on login",
              },
              output: ["typed the password"],
            },
          ],
          after: [
            {
              match: { location: "Hooks.screenshot()" },
              result: { status: "passed", duration: 4_000_000 },
              embeddings: [{ data: PIXEL, mime_type: "image/png", name: "failure screenshot" }],
            },
          ],
        },
      ],
    },
  ];

  it("merges the Background element and the before/after hooks into the next scenario", async () => {
    const [result, extra] = await parse(textFile("jvm.json", JSON.stringify(jvm)));
    expect(extra).toBeUndefined();
    expect(result).toMatchObject({
      name: "Wrong password",
      status: "failed",
      tags: ["@web", "@TC7"],
      error_message:
        'step "When I log in with a wrong password" failed: java.lang.AssertionError: still on login',
      start_time: "2025-05-01T10:00:00.000Z",
      end_time: "2025-05-01T10:00:00.010Z",
      duration_ms: 10,
      console_log: "typed the password",
    });
    expect(result?.steps?.map((s) => [s.action, s.passed, s.before, s.location])).toEqual([
      ["Before", true, true, "Hooks.open()"],
      ["Given the login page", true, true, "classpath:features/login.feature:4"],
      ["When I log in with a wrong password", false, false, "LoginSteps.logIn()"],
      ["After", true, true, "Hooks.screenshot()"],
    ]);
    expect(result?.attachments).toEqual([
      {
        name: "failure screenshot",
        content_type: "image/png",
        step_index: 3,
        // Named by the report; taken as its step ended: the scenario's start plus the durations
        // of the steps up to it.
        description: "failure screenshot",
        timestamp: "2025-05-01T10:00:00.010Z",
        body_base64: PIXEL,
      },
    ]);
  });
});

describe("parseCucumber refuses bad input", () => {
  it("names the line and column of a syntax error", async () => {
    await expect(parse(textFile("c.json", '[{"name": "x",]'))).rejects.toThrow(
      "c.json (line 1, column 15): invalid JSON: property name expected",
    );
  });

  it("says what it expected from JSON that is not Cucumber's", async () => {
    await expect(parse(textFile("c.json", '{"stats": {}}'))).rejects.toThrow(
      "c.json: not a Cucumber JSON report: expected an array of features, as written by `--format json`",
    );
  });

  it("names the JSON path of a missing step result", async () => {
    const file = variant((r) => {
      const feature = r[0] as { elements: { steps: Record<string, unknown>[] }[] };
      delete feature.elements[2]?.steps[1]?.result;
    });
    await expect(parse(file)).rejects.toThrow(
      "cucumber-report.json (at $[0].elements[2].steps[1].result): expected an object, but it is missing",
    );
  });

  it("refuses a value of the wrong type", async () => {
    const file = textFile(
      "c.json",
      JSON.stringify([
        { name: "F", elements: [{ name: "S", steps: [{ result: { status: ["passed"] } }] }] },
      ]),
    );
    await expect(parse(file)).rejects.toThrow(
      "c.json (at $[0].elements[0].steps[0].result.status): expected a string, got an array",
    );
  });

  it("refuses binary embeddings that are not base64", async () => {
    const file = variant((r) => {
      const feature = r[0] as { elements: { steps: { embeddings?: { data: string }[] }[] }[] };
      const embedding = feature.elements[0]?.steps[2]?.embeddings?.[0];
      if (embedding) embedding.data = "<svg onload=alert(1)>";
    });
    await expect(parse(file)).rejects.toThrow(
      "cucumber-report.json (at $[0].elements[0].steps[2].embeddings[0].data): embedding of type image/png is not valid base64",
    );
  });

  it("refuses prototype pollution and deep nesting", async () => {
    await expect(parse(textFile("c.json", '[{"__proto__": {"polluted": true}}]'))).rejects.toThrow(
      "c.json: JSON with __proto__ or constructor.prototype keys is refused",
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    await expect(parse(textFile("c.json", "[".repeat(100_000)))).rejects.toThrow(
      /nested deeper than 64 levels/,
    );
  });
});

describe("detectCucumber", () => {
  it("claims its fixture and none of the other JSON formats", () => {
    const head = (format: string, name: string) => fixtureText(format, name).slice(0, 4096);
    expect(detectCucumber(head("cucumber", "cucumber-report.json"), "r.json")).toBe(true);
    expect(detectCucumber(head("ctrf", "ctrf-report.json"), "r.json")).toBe(false);
    expect(detectCucumber(head("ctrf", "ctrf-legacy.json"), "r.json")).toBe(false);
    expect(detectCucumber(head("playwright", "report.json"), "r.json")).toBe(false);
    expect(detectCucumber(head("mocha", "mocha-report.json"), "r.json")).toBe(false);
    expect(detectCucumber("[]", "r.json")).toBe(false);
    expect(detectCucumber('\uFEFF[{"keyword":"Feature","uri":"a.feature"', "r.json")).toBe(true);
  });
});

describe("the four JSON detectors", () => {
  const detectors = {
    cucumber: detectCucumber,
    ctrf: detectCtrf,
    playwright: detectPlaywright,
    mocha: detectMocha,
  };

  it("each claim their own fixtures only, and no other format's", () => {
    const files = readdirSync(FIXTURES_DIR, { recursive: true, encoding: "utf8" }).filter(
      (name) => !name.includes("generator") && /\.[a-z]+$/i.test(name),
    );
    expect(files.length).toBeGreaterThan(10);
    for (const name of files) {
      const head = readFileSync(`${FIXTURES_DIR}${name}`).subarray(0, 4096).toString("utf8");
      const claims = Object.entries(detectors).filter(([, detect]) => detect(head, name));
      const owner = name.split(/[\\/]/)[0] ?? "";
      const expected = owner in detectors && name.endsWith(".json") ? [owner] : [];
      expect([name, claims.map(([format]) => format)]).toEqual([name, expected]);
    }
  });
});
