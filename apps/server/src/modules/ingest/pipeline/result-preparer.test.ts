import type { ResultInput } from "@assay/core";
import { describe, expect, it } from "vitest";
import type { ParsedResult, UploadFiles } from "../parsers/types.js";
import type { PreparedBatch } from "./prepared-batch.js";
import { ResultPreparer } from "./result-preparer.js";
import { derivedTestRunTestId } from "./result-rows.js";
import { identityOf, namesakeIdentity } from "../test-ids/test-identity.js";

const NO_FILES: UploadFiles = { get: () => undefined, all: () => [] };

const result = (name: string, extra: Partial<ParsedResult> = {}): ResultInput =>
  ({ name, status: "passed", suite_path: ["suite"], ...extra }) as ResultInput;

/** The id derived for attempt 0 of the test `name` in "suite". */
const derived = (name: string) =>
  derivedTestRunTestId(identityOf("frontend", undefined, ["suite"], name), 0);

/** The id derived for attempt 0 of the n-th (2, 3, ...) distinct test named `name` in "suite". */
const namesake = (name: string, n: number) =>
  derivedTestRunTestId(namesakeIdentity(identityOf("frontend", undefined, ["suite"], name), n), 0);

/** Prepares `results` in batches of 2; returns each kept result's test_run_test_id and the summary. */
function prepare(results: ResultInput[], existing: string[] = []) {
  const preparer = new ResultPreparer({
    runId: 1,
    runAt: "2026-03-01T00:00:00.000000Z",
    family: "frontend",
    testIdPattern: /TC(\d+)/i,
    existing,
    batchSize: 2,
  });
  const batches: PreparedBatch[] = [];
  for (const r of results) {
    const full = preparer.add({ result: r, files: NO_FILES });
    if (full) batches.push(full);
  }
  const last = preparer.flush();
  if (last) batches.push(last);
  // A row's tail starts with run_id, run_at, then test_run_test_id.
  const ids = batches.flatMap((batch) =>
    Array.from({ length: batch.rows.rows }, (_, i) => batch.rows.textAt(i).split("\t")[2]!),
  );
  const summary = preparer.done();
  preparer.release();
  return { ids, summary };
}

describe("ResultPreparer: test_run_test_ids", () => {
  it("counts each first attempt of a repeated name as a distinct test, and a retry as the last one's", () => {
    const { ids, summary } = prepare([
      result("a"),
      result("b"),
      result("a"),
      result("c"),
      result("a"),
      result("b", { attempt: 1 }),
      result("a", { attempt: 1 }),
    ]);
    expect(ids).toEqual([
      derived("a"),
      derived("b"),
      namesake("a", 2),
      derived("c"),
      namesake("a", 3),
      `${derived("b").slice(0, 16)}-r1`,
      derivedTestRunTestId(
        namesakeIdentity(identityOf("frontend", undefined, ["suite"], "a"), 3),
        1,
      ),
    ]);
    expect(summary.duplicates).toBe(0);
    // Only b and the third a have retries: the three a's are three tests.
    expect([...summary.retried].sort()).toEqual([1, 4, 5, 6]);
    expect(summary.tally.total).toBe(7);
  });

  it("keeps an attempt with the test of its testKey, whatever the order (Allure's historyId)", () => {
    const a = identityOf("frontend", undefined, ["suite"], "a");
    const { ids, summary } = prepare([
      result("a", { testKey: "h1" }),
      result("a", { testKey: "h2" }),
      result("a", { testKey: "h1", attempt: 1 }),
      result("a", { testKey: "h2", attempt: 1 }),
    ]);
    expect(ids).toEqual([
      derived("a"),
      namesake("a", 2),
      derivedTestRunTestId(a, 1),
      derivedTestRunTestId(namesakeIdentity(a, 2), 1),
    ]);
    expect([...summary.retried].sort()).toEqual([0, 1, 2, 3]);
  });

  it("counts results of different testKeys as different tests, retries or not (Mocha)", () => {
    const a = identityOf("frontend", undefined, ["suite"], "a");
    const { ids, summary } = prepare([
      result("a", { testKey: "entry 0", attempt: 1 }),
      result("a", { testKey: "entry 1", attempt: 2 }),
      result("a", { testKey: "entry 2" }),
    ]);
    expect(ids).toEqual([
      derivedTestRunTestId(a, 1),
      derivedTestRunTestId(namesakeIdentity(a, 2), 2),
      namesake("a", 3),
    ]);
    expect(summary.retried).toEqual([]);
  });

  it("gives a namesake the same id on a re-upload, so the run holds each test once", () => {
    const first = prepare([result("a"), result("a"), result("b")]);
    const again = prepare([result("a"), result("a"), result("b"), result("a")], first.ids);
    expect(again.ids).toEqual([namesake("a", 3)]);
    expect(again.summary.duplicates).toBe(3);
  });

  it("skips the ids the run already holds, first results included", () => {
    const first = prepare([result("a"), result("b"), result("a", { attempt: 1 })]);
    const again = prepare(
      [result("a"), result("b"), result("a", { attempt: 1 }), result("d")],
      first.ids,
    );
    expect(again.ids).toEqual([derived("d")]);
    expect(again.summary.duplicates).toBe(3);
  });

  it("keeps an explicit id and a derived one apart when they are the same text", () => {
    // The explicit id comes first: the derived id of "b" then gets a suffix.
    const { ids } = prepare([
      result("a", { test_run_test_id: derived("b") }),
      result("b"),
      result("b", { test_run_test_id: derived("b") }),
    ]);
    expect(ids).toEqual([derived("b"), `${derived("b")}~2`, `${derived("b")}~3`]);
  });

  it("gives an explicit id that repeats one of this upload a suffix", () => {
    const { ids, summary } = prepare([
      result("a"),
      result("x", { test_run_test_id: "id-1" }),
      result("y", { test_run_test_id: "id-1" }),
      result("z", { test_run_test_id: "id-1" }),
    ]);
    expect(ids).toEqual([derived("a"), "id-1", "id-1~2", "id-1~3"]);
    expect(summary.duplicates).toBe(0);
  });
});
