import type { ResultInput } from "@assay/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { encodeResultTail, RESULT_COLUMNS, type ResultPlace } from "./result-rows.js";

const PLACE: ResultPlace = { runId: 1, runAt: "2026-03-01T00:00:00.000Z", testRunTestId: "t" };
const NO_TEXTS = { ref: () => null };
/** Where properties are in a row's tail: the tail starts after id, test_id and facts_id. */
const PROPERTIES = RESULT_COLUMNS.indexOf("properties") - 3;

const result = (properties?: Record<string, string>): ResultInput =>
  ({ name: "a", status: "passed", suite_path: ["suite"], properties }) as ResultInput;

const propertiesOf = (row: string) => row.slice(0, -1).split("\t")[PROPERTIES];

afterEach(() => {
  vi.restoreAllMocks();
});

describe("encodeResultTail: properties", () => {
  it("writes each result's own properties, whether its record is shared or not", () => {
    const suite = { browser: "Firefox", config: "line 1\nline 2" };
    const own = { browser: "Chrome" };
    const rows = [result(suite), result(suite), result(own), result(suite), result()].map((r) =>
      encodeResultTail(PLACE, r, NO_TEXTS),
    );
    const suiteText = '{"browser":"Firefox","config":"line 1\\\\nline 2"}';
    expect(rows.map(propertiesOf)).toEqual([
      suiteText,
      suiteText,
      '{"browser":"Chrome"}',
      suiteText,
      "\\N",
    ]);
  });

  it("makes a record's JSON once for the results that share it", () => {
    const suite = { browser: "Firefox" };
    const stringify = vi.spyOn(JSON, "stringify");
    for (let i = 0; i < 3; i++) encodeResultTail(PLACE, result(suite), NO_TEXTS);
    expect(stringify).toHaveBeenCalledTimes(1);
  });
});
