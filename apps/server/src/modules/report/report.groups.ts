import type { RunFailureGroup } from "@assay/core";
import type { ReportResult } from "./report.repo.js";

/**
 * The report's failures by triage's failure groups, as the results dialog shows them: each
 * group's cause, its count in the run, new or known (with regressions), and its failed tests.
 * Failures triage has not grouped (a run stored before it, a result of no test) come last.
 */

export interface ReportGroup {
  /** null: the failures no group holds. */
  group: RunFailureGroup | null;
  failures: ReportResult[];
}

export function groupFailures(
  failed: readonly ReportResult[],
  groups: readonly RunFailureGroup[],
): ReportGroup[] {
  // A test's final result has one error, so one group; the first that lists it wins.
  const groupOfTest = new Map<number, number>();
  groups.forEach((group, index) => {
    for (const test of group.tests) if (!groupOfTest.has(test)) groupOfTest.set(test, index);
  });
  const out: ReportGroup[] = groups.map((group) => ({ group, failures: [] }));
  const loose: ReportResult[] = [];
  for (const result of failed) {
    const index = result.test_id === null ? undefined : groupOfTest.get(result.test_id);
    if (index === undefined) loose.push(result);
    else out[index]!.failures.push(result);
  }
  const shown = out.filter((entry) => entry.failures.length > 0);
  return loose.length ? [...shown, { group: null, failures: loose }] : shown;
}

/** "New: first seen in this run", or when and where a known cause was first seen. */
export function groupAge(group: RunFailureGroup): string {
  if (group.isNew) return "New: first seen in this run";
  const at = ` on ${group.firstSeen.at.slice(0, 10)}`;
  const run = group.firstSeen.runKey ? ` in run ${group.firstSeen.runKey}` : "";
  const back = group.isRegression ? " (regression: back after a pause)" : "";
  return `Known: first seen${at}${run}${back}`;
}
