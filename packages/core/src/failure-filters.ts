import type { HistoryStatus } from "./runs-api.js";

/**
 * The 'Filter Failure List' rules of spec section 4, read from a test's history, newest first:
 * - New Failure: the latest entry failed and the one before did not (or it is the only entry);
 * - Failed for three days: the latest three entries all failed.
 * A history entry's status is the history API's: passed, failed (unstable included) or other.
 */

export const FAILURE_FILTERS = [
  { value: "new_failure", label: "New Failure" },
  { value: "failed_three_days", label: "Failed for three days" },
] as const;

export type FailureFilter = (typeof FAILURE_FILTERS)[number]["value"];

export interface HistoryPoint {
  status: HistoryStatus;
}

/** The latest entry failed and the previous one did not, or there is one entry and it failed. */
export function isNewFailure(history: readonly HistoryPoint[]): boolean {
  const [latest, previous] = history;
  if (latest?.status !== "failed") return false;
  return previous === undefined || previous.status !== "failed";
}

/** The latest three entries all failed (fewer than three entries never match). */
export function isFailedThreeDays(history: readonly HistoryPoint[]): boolean {
  return history.length >= 3 && history.slice(0, 3).every((entry) => entry.status === "failed");
}

/** Whether a test with this history (newest first) stays in the list under `filter`. */
export function matchesFailureFilter(
  filter: FailureFilter,
  history: readonly HistoryPoint[],
): boolean {
  return filter === "new_failure" ? isNewFailure(history) : isFailedThreeDays(history);
}

/** The filter named by a URL or select value; anything else means no filter. */
export function parseFailureFilter(value: string | null | undefined): FailureFilter | null {
  return FAILURE_FILTERS.find((filter) => filter.value === value)?.value ?? null;
}
