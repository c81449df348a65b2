import { describe, expect, it } from "vitest";
import {
  isFailedThreeDays,
  isNewFailure,
  matchesFailureFilter,
  parseFailureFilter,
  type HistoryPoint,
} from "./failure-filters.js";

const history = (...statuses: HistoryPoint["status"][]): HistoryPoint[] =>
  statuses.map((status) => ({ status }));

describe("isNewFailure", () => {
  it("matches a failure after a pass or a skip", () => {
    expect(isNewFailure(history("failed", "passed"))).toBe(true);
    expect(isNewFailure(history("failed", "other", "failed"))).toBe(true);
  });

  it("matches a single failed entry", () => {
    expect(isNewFailure(history("failed"))).toBe(true);
  });

  it("does not match a repeated failure, a pass, a skip or no history", () => {
    expect(isNewFailure(history("failed", "failed"))).toBe(false);
    expect(isNewFailure(history("passed", "failed"))).toBe(false);
    expect(isNewFailure(history("other"))).toBe(false);
    expect(isNewFailure([])).toBe(false);
  });
});

describe("isFailedThreeDays", () => {
  it("matches when the latest three entries failed, whatever came before", () => {
    expect(isFailedThreeDays(history("failed", "failed", "failed"))).toBe(true);
    expect(isFailedThreeDays(history("failed", "failed", "failed", "passed"))).toBe(true);
  });

  it("does not match when one of the latest three did not fail, or there are fewer", () => {
    expect(isFailedThreeDays(history("failed", "failed", "passed", "failed"))).toBe(false);
    expect(isFailedThreeDays(history("passed", "failed", "failed", "failed"))).toBe(false);
    expect(isFailedThreeDays(history("failed", "other", "failed"))).toBe(false);
    expect(isFailedThreeDays(history("failed", "failed"))).toBe(false);
    expect(isFailedThreeDays([])).toBe(false);
  });
});

describe("matchesFailureFilter", () => {
  it("applies the rule the filter names", () => {
    const twice = history("failed", "failed", "failed");
    expect(matchesFailureFilter("new_failure", twice)).toBe(false);
    expect(matchesFailureFilter("failed_three_days", twice)).toBe(true);
    expect(matchesFailureFilter("new_failure", history("failed"))).toBe(true);
    expect(matchesFailureFilter("failed_three_days", history("failed"))).toBe(false);
  });
});

describe("parseFailureFilter", () => {
  it("knows the two filters and nothing else", () => {
    expect(parseFailureFilter("new_failure")).toBe("new_failure");
    expect(parseFailureFilter("failed_three_days")).toBe("failed_three_days");
    expect(parseFailureFilter("all")).toBeNull();
    expect(parseFailureFilter(null)).toBeNull();
  });
});
