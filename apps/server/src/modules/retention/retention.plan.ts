import { periodsFor, type Periods, type RetentionPolicy } from "../../config-retention.js";
import type { OldRun } from "./retention.repo.js";

/**
 * What a policy removes, run by run, at a moment: pure, so the dry run and the pass decide
 * the same way and tests check the decision without a database.
 */

const DAY_MS = 86_400_000;

/** Statuses of the results a policy treats as "passed" (kept less long than failures). */
export const PASSED_STATUSES = ["passed", "skipped"] as const;
export const FAILED_STATUSES = ["failed"] as const;
export const ALL_STATUSES = [...PASSED_STATUSES, ...FAILED_STATUSES];

export interface RetentionPlan {
  /** Runs removed whole: past failuresDays, or past runsDays without any failure. */
  wholeRuns: number[];
  /** Runs past runsDays that keep their failures: their passed and skipped results go. */
  passedResultRuns: number[];
  /** Runs (not removed whole) whose passed and skipped results lose their steps and attachments. */
  passedDetailRuns: number[];
  /** Runs (not removed whole) whose failed results lose their steps and attachments. */
  failedDetailRuns: number[];
}

/** The oldest a run may be and not be touched by any rule: runs younger are never read. */
export function youngestCutoff(policy: RetentionPolicy, now: Date): Date | null {
  const all = [policy.default, ...policy.rules].flatMap((p: Periods) =>
    [p.passedDetailsDays, p.failedDetailsDays, p.runsDays, p.failuresDays].filter(
      (d): d is number => d !== undefined,
    ),
  );
  if (all.length === 0) return null;
  return new Date(now.getTime() - Math.min(...all) * DAY_MS);
}

const past = (ageMs: number, days: number | undefined) =>
  days !== undefined && ageMs >= days * DAY_MS;

export function planRetention(
  policy: RetentionPolicy,
  runs: readonly OldRun[],
  now: Date,
): RetentionPlan {
  const plan: RetentionPlan = {
    wholeRuns: [],
    passedResultRuns: [],
    passedDetailRuns: [],
    failedDetailRuns: [],
  };
  for (const run of runs) {
    const periods = periodsFor(policy, run.family, run.branch);
    const age = now.getTime() - run.at.getTime();
    if (past(age, periods.failuresDays) || (past(age, periods.runsDays) && !run.hasFailures)) {
      plan.wholeRuns.push(run.id);
      continue;
    }
    if (past(age, periods.runsDays)) plan.passedResultRuns.push(run.id);
    else if (past(age, periods.passedDetailsDays)) plan.passedDetailRuns.push(run.id);
    if (past(age, periods.failedDetailsDays)) plan.failedDetailRuns.push(run.id);
  }
  return plan;
}

/** Whether anything at all is planned. */
export function planIsEmpty(plan: RetentionPlan): boolean {
  return Object.values(plan).every((ids: number[]) => ids.length === 0);
}
