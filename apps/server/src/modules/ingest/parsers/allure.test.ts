import { readdirSync, readFileSync } from "node:fs";
import { ResultInputSchema, type ResultInput } from "@assay/core";
import { describe, expect, it } from "vitest";
import { MAX_CONTAINER_DEPTH } from "./allure-containers.js";
import { MAX_CONTAINER_CHILDREN } from "./allure-model.js";
import { buildZip } from "./allure-test-zip.js";
import { detectAllure, parseAllure, parseAllureFiles, parseAllureZip } from "./allure.js";
import { FIXTURES_DIR, fixtureFile, textFile, uploadOf } from "./test-files.js";
import type { ReportFile } from "./types.js";

const RESULTS = readdirSync(`${FIXTURES_DIR}allure/results`).sort();
const looseFiles = () => RESULTS.map((name) => fixtureFile("allure", `results/${name}`));
const PNG = "f3f74cfd-c5e7-4842-8c7b-2f8b46ae5006-attachment.png";

async function collect(results: AsyncIterable<ResultInput>): Promise<ResultInput[]> {
  const all: ResultInput[] = [];
  for await (const result of results) all.push(ResultInputSchema.parse(result) && result);
  return all;
}

const parseLoose = (...files: ReportFile[]) => collect(parseAllureFiles(uploadOf(...files)));
const json = (name: string, value: unknown) => textFile(name, JSON.stringify(value));
/** A minimal valid result; `over` replaces or adds fields. */
const result = (uuid: string, over: Record<string, unknown> = {}) =>
  json(`${uuid}-result.json`, {
    uuid,
    name: `test ${uuid}`,
    historyId: `history ${uuid}`,
    status: "passed",
    start: 1_700_000_000_000,
    stop: 1_700_000_000_500,
    ...over,
  });

describe("parseAllureFiles on real allure-mocha 3.12.2 results (7 results, 6 tests)", () => {
  const byName = async () => {
    const all = await parseLoose(...looseFiles());
    return {
      all,
      get: (name: string, attempt = 0) =>
        all.find((r) => r.name === name && r.attempt === attempt)!,
    };
  };

  it("yields every attempt: 2 passed, 4 failed (3 of them broken), 1 skipped", async () => {
    const { all } = await byName();
    expect(all).toHaveLength(7);
    expect(all.map((r) => [r.name, r.attempt, r.status, r.failure_type ?? null])).toEqual([
      ["pays by card", 0, "failed", "error"],
      ["adds an item @TC101", 0, "passed", null],
      ["applies a discount", 0, "failed", "failure"],
      ["computes shipping", 0, "failed", "error"],
      ["removes an item", 0, "skipped", null],
      ["loads recommendations", 0, "failed", "error"],
      ["loads recommendations", 1, "passed", null],
    ]);
  });

  it("reads a passed test with labels, parameters, nested steps and a screenshot in a step", async () => {
    const { get } = await byName();
    expect(get("adds an item @TC101")).toEqual({
      test_run_test_id: "6c072b0c-d97d-4a31-9864-167dc81398f9",
      name: "adds an item @TC101",
      suite_path: ["Checkout", "Cart"],
      status: "passed",
      attempt: 0,
      // Results of one historyId are attempts of one test (Allure's rule).
      testKey: "history:311fe661fa96931090d019703ef6c0e5:38c30e90a0651a4216650e47869a0118",
      tags: ["smoke", "UI"],
      start_time: "2026-11-22T13:29:50.414Z",
      end_time: "2026-11-22T13:29:50.418Z",
      duration_ms: 4,
      properties: {
        fullName:
          "assay-allure-fixture-generator:test/cart.spec.js: Checkout > Cart > adds an item @TC101",
        historyId: "311fe661fa96931090d019703ef6c0e5:38c30e90a0651a4216650e47869a0118",
        testCaseId: "311fe661fa96931090d019703ef6c0e5",
        epic: "Shop",
        feature: "Cart",
        story: "Add to cart",
        "param.browser": "chromium",
      },
      steps: [
        { action: '"before each" hook: open the shop', passed: true, duration_ms: 0, before: true },
        { action: "Open the product page", passed: true, duration_ms: 0, before: false },
        { action: "Search for the product", passed: true, duration_ms: 0, before: false },
        { action: "Click add to cart", passed: true, duration_ms: 1, before: false },
        { action: "Check the badge", passed: true, duration_ms: 1, before: false },
      ],
      attachments: [
        {
          name: "cart screenshot",
          path: `results/${PNG}`,
          content_type: "image/png",
          step_index: 3,
        },
      ],
    });
  });

  it("keeps failed (assertion) and broken (exception) apart, with message and stack", async () => {
    const { get } = await byName();
    const failed = get("applies a discount");
    expect(failed).toMatchObject({
      status: "failed",
      failure_type: "failure",
      error_message: "total after discount\n\n90 !== 80\n",
    });
    expect(failed.error_stack).toMatch(/^AssertionError \[ERR_ASSERTION\]: total after discount/);
    expect(failed.steps?.map((s) => [s.action, s.passed])).toEqual([
      ['"before each" hook: open the shop', true],
      ["Enter the code", true],
      ["Check the total", false],
    ]);
    const broken = get("computes shipping");
    expect(broken).toMatchObject({
      status: "failed",
      failure_type: "error",
      error_message: "Cannot read properties of undefined (reading 'standard')",
      duration_ms: 1,
    });
    expect(broken.error_stack).toMatch(/^TypeError: Cannot read properties of undefined/);
    expect(get("removes an item")).toMatchObject({ status: "skipped", steps: [], duration_ms: 0 });
    expect(get("removes an item").error_message).toBeUndefined();
  });

  it("numbers the retries of a flaky test by start time; the last attempt passed", async () => {
    const { get } = await byName();
    const [first, retry] = [get("loads recommendations", 0), get("loads recommendations", 1)];
    expect(first).toMatchObject({
      test_run_test_id: "48653360-2305-4724-a707-bf75e0deb0b2",
      status: "failed",
      failure_type: "error",
      error_message: "recommendations timed out",
      start_time: "2026-11-22T13:29:50.425Z",
    });
    expect(retry).toMatchObject({
      test_run_test_id: "2c571d7f-923e-4c4e-843f-8029ef82e036",
      status: "passed",
      start_time: "2026-11-22T13:29:50.427Z",
    });
    // The "Retry" parameter is excluded from history by allure-js: not a property of the test.
    expect(retry.properties).not.toHaveProperty("param.Retry");
    expect(retry.steps?.at(-1)).toMatchObject({ action: "Fetch recommendations (call 2)" });
  });

  it("turns container fixtures into before steps and a failed beforeEach into a setup failure", async () => {
    const { get } = await byName();
    expect(get("pays by card")).toMatchObject({
      suite_path: ["Payments"],
      status: "failed",
      failure_type: "error",
      error_message: "sandbox unavailable",
      steps: [
        // The suite-level before ran first (by start time), then the failing beforeEach.
        { action: '"before all" hook: load the card catalogue', passed: true, before: true },
        {
          action: '"before each" hook: connect to the payment sandbox',
          passed: false,
          before: true,
        },
      ],
    });
    expect(get("pays by card").error_stack).toMatch(/^Error: sandbox unavailable\n/);
  });

  it("reads the zipped folder the same way, with attachment paths inside the zip", async () => {
    const zip = fixtureFile("allure", "allure-results.zip");
    const fromZip = await collect(parseAllure(zip, uploadOf(zip)));
    const loose = await parseLoose(...looseFiles());
    const relocated = JSON.parse(JSON.stringify(loose).replaceAll('"results/', '"allure-results/'));
    expect(fromZip).toEqual(relocated);

    const { files, results } = await parseAllureZip(zip);
    const [screenshot] = (await collect(results)).flatMap((r) => r.attachments ?? []);
    const chunks: Buffer[] = [];
    for await (const chunk of files.get(screenshot!.path!)!.open()) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks)).toEqual(readFileSync(`${FIXTURES_DIR}allure/results/${PNG}`));
  });

  it("also treats a loose result file given to parseAllure as the whole upload", async () => {
    const files = looseFiles();
    expect(await collect(parseAllure(files[1]!, uploadOf(...files)))).toHaveLength(7);
  });
});

describe("parseAllureFiles on hand-made results", () => {
  it("maps unknown and unrecognised statuses to skipped, and results without historyId apart", async () => {
    const out = await parseLoose(
      result("a", { status: "unknown", historyId: null }),
      result("b", { status: "weird", historyId: undefined }),
      result("c", { status: undefined, name: "", fullName: "pkg.Class.c" }),
    );
    expect(out.map((r) => [r.name, r.status, r.attempt])).toEqual([
      ["test a", "skipped", 0],
      ["test b", "skipped", 0],
      ["pkg.Class.c", "skipped", 0],
    ]);
  });

  it("orders retries by start, whatever the file order, and the last decides", async () => {
    const out = await parseLoose(
      result("late", { historyId: "same", status: "passed", start: 3000, stop: 3500 }),
      result("early", { historyId: "same", status: "failed", start: 1000, stop: 1500 }),
      result("middle", { historyId: "same", status: "broken", start: 2000, stop: 2500 }),
    );
    expect(out.map((r) => [r.test_run_test_id, r.attempt, r.status])).toEqual([
      ["early", 0, "failed"],
      ["middle", 1, "failed"],
      ["late", 2, "passed"],
    ]);
  });

  it("fails a passed or skipped test whose before fixture failed, with the fixture's error", async () => {
    const out = await parseLoose(
      result("t1", { status: "skipped" }),
      json("c-container.json", {
        uuid: "c",
        children: ["t1"],
        befores: [
          { name: "setUp", status: "failed", statusDetails: { message: "db down", trace: "at x" } },
        ],
        afters: [{ name: "tearDown", status: "passed", start: 1, stop: 3 }],
      }),
    );
    expect(out[0]).toMatchObject({
      status: "failed",
      failure_type: "failure",
      error_message: "db down",
      error_stack: "at x",
      steps: [
        { action: "setUp", passed: false, before: true },
        { action: "tearDown", passed: true, duration_ms: 2, before: true },
      ],
    });
  });

  it("keeps only attachments that are plain file names of the same upload (Z10, P1)", async () => {
    const sources = [
      "../../../../etc/passwd",
      "/etc/passwd",
      "C:\\boot.ini",
      "https://127.0.0.1:9/x",
      "file:///etc/passwd",
      "..",
      "absent-attachment.png",
      "ok-attachment.txt",
    ];
    const out = await parseLoose(
      result("t", {
        attachments: sources.map((source) => ({ name: "", source, type: "text/html" })),
      }),
      textFile("ok-attachment.txt", "hello"),
      textFile("etc/passwd", "root:x"),
    );
    expect(out[0]!.attachments).toEqual([
      { name: "ok-attachment.txt", path: "ok-attachment.txt", content_type: "text/html" },
    ]);
  });

  it("ends on container cycles and shares fixtures of nested containers (Z11)", async () => {
    const out = await parseLoose(
      result("t"),
      json("a-container.json", { uuid: "a", children: ["t", "b"], befores: [{ name: "inner" }] }),
      json("b-container.json", { uuid: "b", children: ["a"], befores: [{ name: "outer" }] }),
    );
    expect(out[0]!.steps?.map((s) => s.action)).toEqual(["outer", "inner"]);
  });

  it("refuses containers with too many children or nested too deep (Z11)", async () => {
    const many = Array.from({ length: MAX_CONTAINER_CHILDREN + 1 }, (_, i) => `c${i}`);
    await expect(
      parseLoose(result("t"), json("big-container.json", { uuid: "big", children: many })),
    ).rejects.toThrow(
      `big-container.json (at $.children): expected an Allure container (*-container.json): Too big: expected array to have <=${MAX_CONTAINER_CHILDREN} items`,
    );
    const chain = Array.from({ length: MAX_CONTAINER_DEPTH + 1 }, (_, i) =>
      json(`k${i}-container.json`, { uuid: `k${i}`, children: [i === 0 ? "t" : `k${i - 1}`] }),
    );
    await expect(parseLoose(result("t"), ...chain)).rejects.toThrow(
      `k${MAX_CONTAINER_DEPTH}-container.json (at $.children): containers are nested more than ${MAX_CONTAINER_DEPTH} levels deep`,
    );
  });

  it("refuses malformed JSON with its position, and JSON that is not an Allure result", async () => {
    await expect(
      parseLoose(textFile("x-result.json", '{"name": "a",\n "status": }')),
    ).rejects.toThrow("x-result.json (line 2, column 12): invalid JSON: value expected");
    await expect(parseLoose(json("x-result.json", []))).rejects.toThrow(
      "x-result.json (at $): expected an Allure test result (*-result.json): Invalid input: expected object, received array",
    );
    await expect(parseLoose(json("x-result.json", { results: [] }))).rejects.toThrow(
      "x-result.json (at $.name): expected an Allure test result (*-result.json): Invalid input: expected string, received undefined",
    );
  });

  it("refuses wrong types, out-of-range times and prototype keys (J1, J3, J4)", async () => {
    await expect(parseLoose(result("t", { status: ["passed"] }))).rejects.toThrow(
      "t-result.json (at $.status): expected an Allure test result (*-result.json): Invalid input: expected string, received array",
    );
    await expect(
      parseLoose(textFile("t-result.json", '{"name":"t","start":1e400}')),
    ).rejects.toThrow(
      "t-result.json (at $.start): expected an Allure test result (*-result.json): Invalid input: expected number, received Infinity",
    );
    await expect(parseLoose(result("t", { stop: -5 }))).rejects.toThrow("(at $.stop)");
    await expect(
      parseLoose(result("t", { steps: [{ name: "s", steps: [{ name: 3 }] }] })),
    ).rejects.toThrow("t-result.json (at $.steps[0].steps[0].name)");
    await expect(
      parseLoose(textFile("t-result.json", '{"name":"t","labels":[{"__proto__":{"x":1}}]}')),
    ).rejects.toThrow(
      "t-result.json: JSON with __proto__ or constructor.prototype keys is refused",
    );
  });

  it("refuses two results with one uuid, and an upload without results", async () => {
    await expect(
      parseLoose(result("u"), json("copy-result.json", { uuid: "u", name: "x" })),
    ).rejects.toThrow(
      "copy-result.json (at $.uuid): uuid u is also used by u-result.json; each result must have its own",
    );
    await expect(parseLoose(json("c-container.json", { uuid: "c" }))).rejects.toThrow(
      "c-container.json: no *-result.json file found; expected an Allure results folder",
    );
  });

  it("finds results of a zip with no top-level folder; a nested zip is not expanded (Z3)", async () => {
    const inner = buildZip([{ name: "z-result.json", data: '{"name":"hidden"}' }]);
    const zip = textFile(
      "results.zip",
      buildZip([
        {
          name: "t-result.json",
          data: JSON.stringify({ name: "t", attachments: [{ source: "a.png" }] }),
        },
        { name: "a.png", data: "png" },
        { name: "inner.zip", data: inner, method: 0 },
      ]),
    );
    const out = await collect(parseAllure(zip, uploadOf(zip)));
    expect(out.map((r) => [r.name, r.attachments])).toEqual([
      ["t", [{ name: "a.png", path: "a.png" }]],
    ]);
  });
});

describe("detectAllure", () => {
  it("recognises result files by name or keys, and zips of a results folder", () => {
    const head = '{"uuid":"1","name":"t","historyId":"h","status":"passed"}';
    expect(detectAllure(head, "allure-results/1-result.json")).toBe(true);
    expect(detectAllure(head, "report.json")).toBe(true);
    expect(detectAllure('{"name":"t"}', "abc-result.json")).toBe(true);
    expect(detectAllure("PK\u0003\u0004\u0014\u0000", "allure-results.zip")).toBe(true);
    expect(detectAllure("PK\u0003\u0004\u0014\u0000...x-result.json", "upload.zip")).toBe(true);
  });

  it("leaves other formats alone", () => {
    expect(detectAllure('<?xml version="1.0"?><testsuites/>', "junit.xml")).toBe(false);
    expect(detectAllure('{"results":{"tool":{"name":"jest"}}}', "ctrf.json")).toBe(false);
    expect(detectAllure('[{"uri":"a.feature"}]', "cucumber.json")).toBe(false);
    expect(detectAllure("PK\u0003\u0004\u0014\u0000...trace.trace", "trace.zip")).toBe(false);
    expect(detectAllure("name,value", "x-result.json")).toBe(false);
  });
});
