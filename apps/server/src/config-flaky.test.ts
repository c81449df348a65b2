import { describe, expect, it } from "vitest";
import { FLAKY_DEFAULTS, readFlakyConfig } from "./config-flaky.js";

describe("flaky tests' settings", () => {
  it("asks 5 results of a window before it is called flaky, unless told otherwise", () => {
    expect(readFlakyConfig({})).toEqual({ config: FLAKY_DEFAULTS });
    expect(FLAKY_DEFAULTS.minResults).toBe(5);
    expect(readFlakyConfig({ ASSAY_FLAKY_MIN_RESULTS: "10" })).toEqual({
      config: { ...FLAKY_DEFAULTS, minResults: 10 },
    });
  });

  it("refuses a minimum that is not a whole number from 2, or more than the window, in words", () => {
    expect(readFlakyConfig({ ASSAY_FLAKY_MIN_RESULTS: "1" })).toEqual({
      problems: ['ASSAY_FLAKY_MIN_RESULTS: expected a whole number from 2 to 200, got "1"'],
    });
    expect(readFlakyConfig({ ASSAY_FLAKY_MIN_RESULTS: "2.5" })).toEqual({
      problems: ['ASSAY_FLAKY_MIN_RESULTS: expected a whole number from 2 to 200, got "2.5"'],
    });
    expect(readFlakyConfig({ ASSAY_FLAKY_WINDOW: "10", ASSAY_FLAKY_MIN_RESULTS: "12" })).toEqual({
      problems: ["ASSAY_FLAKY_MIN_RESULTS: expected at most ASSAY_FLAKY_WINDOW (10), got 12"],
    });
  });
});
