import type { TraceabilityRow } from "./traceability-api.js";

/** The screen's rules of the Traceability Matrix (spec section 2), shared by tests and the web. */

export const TRACEABILITY_PAGE_SIZES = [25, 50, 100] as const;

/**
 * How a requirement read from Spira is keyed: Spira's own token, RQ:{RequirementId}. Such a key
 * is not an issue of the tracker the other keys link to (Jira's browse URL).
 */
export const SPIRA_REQUIREMENT_PREFIX = "RQ:";

export const isSpiraRequirementKey = (key: string) => key.startsWith(SPIRA_REQUIREMENT_PREFIX);

export const COVERAGE_FILTERS = [
  { value: "all", label: "Show All" },
  { value: "notCovered", label: "Not Covered" },
  { value: "covered", label: "Covered" },
  { value: "allPassed", label: "100% passed" },
  { value: "notAllPassed", label: "< 100% passed" },
] as const;
export type CoverageFilter = (typeof COVERAGE_FILTERS)[number]["value"];

export interface RunCounts {
  passed: number;
  failed: number;
  notRun: number;
  total: number;
}

export function runCounts(row: TraceabilityRow): RunCounts {
  let passed = 0;
  let failed = 0;
  for (const run of row.testRuns) {
    if (run.status === "passed") passed += 1;
    else if (run.status === "failed") failed += 1;
  }
  const total = row.testRuns.length;
  return { passed, failed, notRun: total - passed - failed, total };
}

export function matchesCoverageFilter(row: TraceabilityRow, filter: CoverageFilter): boolean {
  const counts = runCounts(row);
  switch (filter) {
    case "all":
      return true;
    case "notCovered":
      return counts.total === 0;
    case "covered":
      return counts.total > 0;
    case "allPassed":
      return counts.total > 0 && counts.passed === counts.total;
    case "notAllPassed":
      return counts.total > 0 && counts.passed < counts.total;
  }
}

/** The text filter of the RMS column: summary, rms key and epic, case-insensitive. */
export function matchesRmsText(row: TraceabilityRow, text: string): boolean {
  const needle = text.trim().toLowerCase();
  if (!needle) return true;
  const { summary, rms, epic } = row.rmsDetail;
  return [summary, rms, epic].some((field) => field.toLowerCase().includes(needle));
}

/** Rows the screen shows: Hide Inactive RMS hides rows whose noTestNeeded is 1. */
export function visibleRows(
  rows: readonly TraceabilityRow[],
  options: { hideInactive: boolean; text: string; filter: CoverageFilter },
): TraceabilityRow[] {
  return rows.filter(
    (row) =>
      !(options.hideInactive && row.rmsDetail.noTestNeeded === 1) &&
      matchesRmsText(row, options.text) &&
      matchesCoverageFilter(row, options.filter),
  );
}

/** 'x.xx%' of rows with at least one test run, or 'N/A' when there are no rows. */
export function coverageLabel(rows: readonly TraceabilityRow[]): string {
  if (rows.length === 0) return "N/A";
  const covered = rows.filter((row) => row.testRuns.length > 0).length;
  return `${((covered / rows.length) * 100).toFixed(2)}%`;
}

/** Percent labels on the bar show only when over 4% (spec section 9). */
export function percentLabel(part: number, total: number): string {
  if (total === 0) return "";
  const percent = (part / total) * 100;
  return percent > 4 ? `${Math.round(percent)}%` : "";
}
