import { Readable } from "node:stream";
import { ResultInputSchema, type ResultInput } from "@assay/core";
import { describe, expect, it } from "vitest";
import { detectJunit, parseJunit } from "./junit.js";
import { fixtureFile, fixtureText } from "./test-files.js";
import type { ReportFile, UploadFiles } from "./types.js";

/** The parser only names attachments; looking a file up (or opening one) would be a bug. */
const untouchable: UploadFiles = {
  get: () => expect.fail("the JUnit parser must not look up uploaded files"),
  all: () => expect.fail("the JUnit parser must not list uploaded files"),
};

async function parse(file: ReportFile): Promise<ResultInput[]> {
  const results: ResultInput[] = [];
  for await (const result of parseJunit(file, untouchable)) {
    results.push(result);
    expect(ResultInputSchema.safeParse(result).error).toBeUndefined();
  }
  return results;
}

const load = (name: string) => parse(fixtureFile("junit", name));
const brief = (r: ResultInput) => [r.suite_path, r.name, r.status, r.attempt];

describe("parseJunit on jest-junit 17.0.0 (jest 30.5.2) output", () => {
  it("yields one result per testcase with jest-junit's suite and names", async () => {
    const results = await load("jest-junit.xml");
    expect(results.map(brief)).toEqual([
      [["Cart"], "Cart adds an item @TC101", "passed", 0],
      [["Cart"], "Cart applies a discount", "failed", 0],
      [["Cart"], "Cart checkout charges the card", "failed", 0],
      [["Cart"], "Cart checkout sends a receipt", "skipped", 0],
      // jest-junit writes test.todo as a testcase without <skipped>: passed, as reported.
      [["Cart"], "Cart checkout prints an invoice", "passed", 0],
      // jest.retryTimes keeps only the final attempt in jest's results.
      [["Cart"], "Cart checkout is flaky: fails once, then passes", "passed", 0],
      [["Search"], "Search finds by title", "passed", 0],
    ]);
    expect(results.map((r) => r.duration_ms)).toEqual([11, 7, 1, 0, 0, 0, 7]);
    expect(new Set(results.map((r) => r.start_time))).toEqual(
      new Set(["2026-11-22T13:34:15.000Z"]),
    );
  });

  it("splits the failure text into name, message and stack", async () => {
    const [, discount, card] = await load("jest-junit.xml");
    expect(discount).toMatchObject({
      failure_type: "failure",
      error_name: "Error",
      error_message: expect.stringMatching(
        /^expect\(received\)\.toEqual\(expected\) \/\/ deep equality\n\n- Expected {2}- 1\n/,
      ),
      error_stack: expect.stringContaining("at Object.toEqual (/tmp/junit-gen/jest/tests/cart"),
    });
    expect(discount?.error_message).not.toContain(" at ");
    expect(card).toMatchObject({
      error_name: "TypeError",
      error_message: "card is undefined",
      error_stack: expect.stringMatching(/^TypeError: card is undefined\n {4}at Object/),
    });
  });

  it("reads suite and testcase properties, the file and the screenshots", async () => {
    const [added, discount, card] = await load("jest-junit.xml");
    expect(added).toMatchObject({
      file: "tests/cart.test.js",
      commit_hash: "3f2c1ab",
      platform: "linux",
      properties: { browser: "chromium", commit: "3f2c1ab", platform: "linux", owner: "qa" },
    });
    expect(added?.attachments).toBeUndefined();
    expect(discount?.attachments).toEqual([
      {
        name: "applies-a-discount.png",
        path: "screenshots/applies-a-discount.png",
        content_type: "image/png",
      },
    ]);
    expect(card?.attachments?.map((a) => a.path)).toEqual(["screenshots/charges-the-card.png"]);
    expect(discount?.properties).not.toHaveProperty("attachment");
  });

  it("gives the suite's console output (written after the testcases) to its tests", async () => {
    const results = await load("jest-junit.xml");
    expect(results[0]?.console_log).toMatch(/^\[\n {2}\{\n {4}"message": "adding item sku-1"/);
    expect(results[5]?.console_log).toBe(results[0]?.console_log);
    expect(results[6]?.console_log).toContain('"message": "index is cold"');
  });
});

describe("parseJunit on node:test's junit reporter (Node 20.20.2)", () => {
  it("keeps nested suites and ignores node's placeholder classname", async () => {
    const results = await load("node-test-junit.xml");
    expect(results.map(brief)).toEqual([
      [["Cart"], "adds an item @TC101", "passed", 0],
      [["Cart"], "applies a discount", "failed", 0],
      [["Cart", "checkout"], "charges the card", "failed", 0],
      [["Cart", "checkout"], "sends a receipt", "skipped", 0],
      [["Cart", "checkout"], "prints an invoice", "skipped", 0],
      [["Cart", "checkout"], "logs the order", "passed", 0],
      [["top-level test with subtests"], "first step", "passed", 0],
      [["top-level test with subtests"], "second step", "failed", 0],
    ]);
    expect(results.map((r) => r.duration_ms)).toEqual([
      0.782, 2.489, 0.233, 0.183, 0.152, 0.131, 0.178, 0.273,
    ]);
    // node writes message="true" on skipped tests: not a reason.
    expect(results[3]?.error_message).toBeUndefined();
  });

  it("recovers the line breaks node drops from the message attribute", async () => {
    const results = await load("node-test-junit.xml");
    expect(results[1]).toMatchObject({
      failure_type: "failure",
      error_name: "testCodeFailure",
      error_message:
        "Expected values to be strictly deep-equal:\n+ actual - expected\n\n  {\n+   total: 90\n-   total: 80\n  }",
    });
    expect(results[1]?.error_stack).toMatch(/^Error \[ERR_TEST_FAILURE\]: Expected values/);
  });
});

describe("parseJunit on mocha-junit-reporter 2.2.1 (mocha 11.7.5) output", () => {
  it("yields the tests under the reporter's flat suites, pending as skipped", async () => {
    const results = await load("mocha-junit.xml");
    expect(results.map(brief)).toEqual([
      [["Cart"], "Cart adds an item @TC101", "passed", 0],
      [["Cart"], "Cart applies a discount", "failed", 0],
      [["checkout"], "Cart checkout charges the card", "failed", 0],
      [["checkout"], "Cart checkout sends a receipt", "skipped", 0],
      [["checkout"], "Cart checkout is flaky: fails once, then passes", "passed", 0],
      [["Search"], 'Search "before each" hook for "finds by title"', "failed", 0],
    ]);
    expect(results[0]).toMatchObject({
      file: "/tmp/junit-gen/mocha/test/cart.spec.js",
      start_time: "2026-11-22T13:34:16.000Z",
      console_log: "adding item sku-1",
    });
  });

  it("reads [[ATTACHMENT|...]] lines, system-err and the multi-line message", async () => {
    const [, discount, card] = await load("mocha-junit.xml");
    expect(discount).toMatchObject({
      error_name: "AssertionError",
      error_message:
        "Expected values to be strictly deep-equal:\n+ actual - expected\n\n  {\n+   total: 90\n-   total: 80\n  }",
      console_log: "[[ATTACHMENT|screenshots/applies-a-discount.png]]",
      attachments: [
        {
          name: "applies-a-discount.png",
          path: "screenshots/applies-a-discount.png",
          content_type: "image/png",
        },
      ],
    });
    expect(card).toMatchObject({
      error_name: "TypeError",
      error_message: "card is undefined",
      console_errors: "payment gateway timed out",
    });
  });
});

describe("parseJunit on @wdio/junit-reporter 9.32.0 output", () => {
  it("keeps WebdriverIO's <error> as failure_type error", async () => {
    const results = await load("wdio-junit.xml");
    expect(results.map(brief)).toEqual([
      [["Login page"], "shows the title @TC201", "passed", 0],
      [["Login page"], "shows the sign up link", "failed", 0],
      [["Login page"], "submits the form", "failed", 0],
      [["Login page"], "remembers the user", "skipped", 0],
      [["Login page"], "is flaky fails once then passes", "failed", 0],
      [["Login page"], "is flaky fails once then passes", "passed", 1],
    ]);
    expect(results[1]).toMatchObject({
      failure_type: "error",
      error_name: "AssertionError",
      error_message: expect.stringMatching(/^sign-up link is missing\n\nfalse !== true\n/),
      error_stack: expect.stringMatching(/^AssertionError \[ERR_ASSERTION\]: sign-up link/),
      attachments: [
        {
          name: "sign-up-link.png",
          path: "screenshots/sign-up-link.png",
          content_type: "image/png",
        },
      ],
    });
    expect(results[2]).toMatchObject({ failure_type: "error", error_name: "TypeError" });
  });

  it("turns the reporter's skipped retry into a failed first attempt", async () => {
    const results = await load("wdio-junit.xml");
    expect(results[4]).toMatchObject({
      status: "failed",
      error_name: "AssertionError",
      error_message: "first attempt fails\n\n1 !== 2",
    });
  });

  it("reads browser version and platform from the capabilities property", async () => {
    const [first] = await load("wdio-junit.xml");
    expect(first).toMatchObject({
      chrome_version: "156.0.8078.79",
      platform: "linux",
      file: "file://./test/specs/login.e2e.js",
      start_time: "2026-11-22T13:34:20.000Z",
      duration_ms: 21,
    });
  });
});

describe("parseJunit streaming", () => {
  it("parses a generated 20,000-testcase report, yielding before the file is read", async () => {
    const total = 20_000;
    let sourceDone = false;
    async function* source() {
      yield Buffer.from('<?xml version="1.0"?>\n<testsuites tests="1">\n<testsuite name="load">\n');
      for (let i = 0; i < total; i += 500) {
        let chunk = "";
        for (let j = i; j < i + 500; j++) {
          chunk += `<testcase classname="load" name="case ${j}" time="0.001"/>\n`;
        }
        yield Buffer.from(chunk);
      }
      yield Buffer.from("</testsuite>\n</testsuites>\n");
      sourceDone = true;
    }
    // One chunk of read-ahead at most, so "before the end" means what it says.
    const open = () => Readable.from(source(), { highWaterMark: 1 });
    const file: ReportFile = { name: "big.xml", size: 0, open };
    let count = 0;
    let beforeEnd = 0;
    for await (const result of parseJunit(file, untouchable)) {
      if (!sourceDone) beforeEnd++;
      expect(result.name).toBe(`case ${count}`);
      count++;
    }
    expect(count).toBe(total);
    expect(beforeEnd).toBeGreaterThan(total / 2);
  });
});

describe("detectJunit", () => {
  const head = (name: string) => fixtureText("junit", name).slice(0, 4096);

  it("claims every fixture", () => {
    for (const name of [
      "jest-junit.xml",
      "node-test-junit.xml",
      "mocha-junit.xml",
      "wdio-junit.xml",
      "TEST-com.example.CartTest.xml",
    ]) {
      expect(detectJunit(head(name), name)).toBe(true);
    }
  });

  it("looks past comments, processing instructions, a BOM and UTF-16", () => {
    expect(detectJunit('\uFEFF<?xml version="1.0"?><!-- x --><?pi y?>\n<testsuite>', "a")).toBe(
      true,
    );
    const utf16 = Buffer.from('\uFEFF<testsuites name="x">', "utf16le").toString("utf8");
    expect(detectJunit(utf16, "report.xml")).toBe(true);
  });

  it("claims a DOCTYPE'd JUnit file so that the parser can refuse it", () => {
    expect(detectJunit("<!DOCTYPE testsuite [<!ENTITY x 'y'>]><testsuite/>", "r.xml")).toBe(true);
  });

  it("rejects other files", () => {
    for (const text of [
      '[{"elements":[]}]',
      '{"results":{"tool":{"name":"x"}}}',
      "<!DOCTYPE html><html></html>",
      '<?xml version="1.0"?><html/>',
      "<testsuitex/>",
      "testsuite",
      "",
    ]) {
      expect(detectJunit(text, "report.xml")).toBe(false);
    }
  });
});
