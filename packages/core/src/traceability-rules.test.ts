import { describe, expect, it } from "vitest";
import type { TraceabilityRow, TraceabilityTestRun } from "./traceability-api.js";
import {
  coverageLabel,
  matchesCoverageFilter,
  percentLabel,
  runCounts,
  visibleRows,
} from "./traceability-rules.js";

let nextId = 1;
function row(
  rms: string,
  statuses: TraceabilityTestRun["status"][],
  extra: { epic?: string; summary?: string; noTestNeeded?: 0 | 1 } = {},
): TraceabilityRow {
  return {
    rmsDetail: {
      id: nextId++,
      rms,
      summary: extra.summary ?? `${rms} summary`,
      epic: extra.epic ?? "",
      type: "Story",
      note: "",
      noTestNeeded: extra.noTestNeeded ?? 0,
    },
    testRuns: statuses.map((status, i) => ({
      testId: i + 1,
      name: `t${i}`,
      filePath: null,
      suitePath: [],
      status,
      errorMessage: null,
    })),
    linkedBugs: [],
  };
}

const none = row("RMS-1", []);
const allPassed = row("RMS-2", ["passed", "passed"]);
const mixed = row("RMS-3", ["passed", "failed", null], { epic: "Billing" });
const inactive = row("RMS-4", [], { noTestNeeded: 1, summary: "Manual only" });

describe("runCounts", () => {
  it("counts passed, failed and not run (null) tests", () => {
    expect(runCounts(mixed)).toEqual({ passed: 1, failed: 1, notRun: 1, total: 3 });
  });
});

describe("matchesCoverageFilter", () => {
  it.each([
    ["all", [none, allPassed, mixed]],
    ["notCovered", [none]],
    ["covered", [allPassed, mixed]],
    ["allPassed", [allPassed]],
    ["notAllPassed", [mixed]],
  ] as const)("%s keeps the right rows", (filter, expected) => {
    expect([none, allPassed, mixed].filter((r) => matchesCoverageFilter(r, filter))).toEqual(
      expected,
    );
  });
});

describe("visibleRows", () => {
  const rows = [none, allPassed, mixed, inactive];

  it("hides noTestNeeded rows when Hide Inactive RMS is on, shows them when off", () => {
    expect(visibleRows(rows, { hideInactive: true, text: "", filter: "all" })).toEqual([
      none,
      allPassed,
      mixed,
    ]);
    expect(visibleRows(rows, { hideInactive: false, text: "", filter: "all" })).toContain(inactive);
  });

  it("filters text over summary, rms key and epic, case-insensitively", () => {
    const text = (t: string) => visibleRows(rows, { hideInactive: false, text: t, filter: "all" });
    expect(text("billing")).toEqual([mixed]);
    expect(text("rms-2")).toEqual([allPassed]);
    expect(text("MANUAL")).toEqual([inactive]);
  });
});

describe("coverageLabel", () => {
  it("is rows with a test run over all rows, with 2 decimals", () => {
    expect(coverageLabel([none, allPassed, mixed])).toBe("66.67%");
  });
  it("is N/A when there are no rows", () => {
    expect(coverageLabel([])).toBe("N/A");
  });
});

describe("percentLabel", () => {
  it("shows a label only over 4%", () => {
    expect(percentLabel(4, 100)).toBe("");
    expect(percentLabel(5, 100)).toBe("5%");
    expect(percentLabel(0, 0)).toBe("");
  });
});
