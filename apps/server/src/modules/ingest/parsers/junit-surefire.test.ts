import { ResultInputSchema, type ResultInput } from "@assay/core";
import { describe, expect, it } from "vitest";
import { parseJunit } from "./junit.js";
import { fixtureFile, uploadOf } from "./test-files.js";

/*
 * Maven Surefire's rerunFailingTestsCount output. Maven Central cannot be reached here, so the
 * fixture is written by hand from Surefire's rerun-failing-tests documentation and its 3.0 XSD
 * (see the fixtures' generator/README.md).
 */

async function load(name: string): Promise<ResultInput[]> {
  const results: ResultInput[] = [];
  for await (const result of parseJunit(fixtureFile("junit", name), uploadOf())) {
    expect(ResultInputSchema.safeParse(result).error).toBeUndefined();
    results.push(result);
  }
  return results;
}

describe("parseJunit on a Maven Surefire 3.0 report with reruns (hand-written)", () => {
  it("makes each flaky and rerun element an attempt; the last one decides", async () => {
    const results = await load("TEST-com.example.CartTest.xml");
    expect(results.map((r) => [r.name, r.attempt, r.status, r.failure_type])).toEqual([
      ["addsItem", 0, "passed", undefined],
      ["appliesDiscount", 0, "failed", "failure"],
      ["appliesDiscount", 1, "passed", undefined],
      ["reservesStock", 0, "failed", "error"],
      ["reservesStock", 1, "failed", "failure"],
      ["reservesStock", 2, "passed", undefined],
      ["chargesCard", 0, "failed", "failure"],
      ["chargesCard", 1, "failed", "failure"],
      ["chargesCard", 2, "failed", "failure"],
      ["sendsReceipt", 0, "failed", "error"],
      ["sendsReceipt", 1, "failed", "error"],
      ["printsInvoice", 0, "skipped", undefined],
    ]);
    expect(new Set(results.map((r) => r.suite_path?.join()))).toEqual(
      new Set(["com.example.CartTest"]),
    );
  });

  it("gives each attempt its own message, trace, output and screenshots", async () => {
    const results = await load("TEST-com.example.CartTest.xml");
    const charges = results.filter((r) => r.name === "chargesCard");
    expect(charges.map((r) => [r.error_message, r.console_log, r.duration_ms])).toEqual([
      [
        "expected: <PAID> but was: <DECLINED>",
        "first run: gateway answered DECLINED\n[[ATTACHMENT|target/screenshots/chargesCard-1.png]]",
        1105,
      ],
      ["expected: <PAID> but was: <TIMEOUT>", "second run: gateway timed out", undefined],
      [
        "expected: <PAID> but was: <DECLINED>",
        "third run: gateway answered DECLINED\n[[ATTACHMENT|target/screenshots/chargesCard-3.png]]",
        undefined,
      ],
    ]);
    expect(charges.map((r) => r.attachments?.map((a) => a.path))).toEqual([
      ["target/screenshots/chargesCard-1.png"],
      undefined,
      ["target/screenshots/chargesCard-3.png"],
    ]);
    expect(charges[1]?.error_stack).toMatch(/^org\.opentest4j\.AssertionFailedError: .*TIMEOUT/);
    const discount = results.filter((r) => r.name === "appliesDiscount");
    expect(discount.map((r) => [r.console_log, r.duration_ms])).toEqual([
      ["discount service warming up", undefined],
      ["discount applied", 34],
    ]);
    expect(results[4]).toMatchObject({ console_errors: "stock cache stale" });
    expect(results[11]).toMatchObject({ error_message: "printer not configured" });
  });

  it("maps well-known suite properties to fields and keeps them all", async () => {
    const [first] = await load("TEST-com.example.CartTest.xml");
    expect(first).toMatchObject({
      platform: "Linux",
      commit_hash: "9b1d4e7",
      properties: {
        "java.version": "21.0.5",
        "os.name": "Linux",
        "surefire.rerunFailingTestsCount": "2",
        "git.commit": "9b1d4e7",
      },
    });
  });
});
