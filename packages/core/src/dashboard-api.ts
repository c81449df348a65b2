import { z } from "zod";
import { DailyEnvSchema } from "./catalog.js";

/**
 * The Dashboard's API (spec section 2 "Dashboard", section 9): per-day sums of the runs of the
 * daily robot executor (GRAPH) and the runs of the automatic rerun of failures (TABLE), for a
 * family, a platform (frontend only) and DEV or STAGE. Days are UTC dates (YYYY-MM-DD).
 */

/** The period selector: the last 14, 30 or 90 days (default 30). */
export const DASHBOARD_PERIODS = [14, 30, 90] as const;
export const DEFAULT_DASHBOARD_PERIOD = 30;
export type DashboardPeriod = (typeof DASHBOARD_PERIODS)[number];

export const DashboardFamilySchema = z.enum(["frontend", "backend"]);
export const DashboardPlatformSchema = z.enum(["legacy", "nextGen"]);

export const DailyRunsQuerySchema = z.object({
  family: DashboardFamilySchema.describe(
    "frontend: Daily UI Test Runs; backend: Daily Api Test Runs",
  ),
  platform: DashboardPlatformSchema.default("legacy").describe(
    "Legacy or NextGen sites (frontend only; ignored for backend)",
  ),
  env: DailyEnvSchema.default("dev").describe(
    "dev or stage: sites (frontend) or envs (backend) the catalogue puts there",
  ),
  days: z.coerce
    .number()
    .pipe(z.literal(DASHBOARD_PERIODS))
    .default(DEFAULT_DASHBOARD_PERIOD)
    .describe(`Days up to today (UTC): one of ${DASHBOARD_PERIODS.join(", ")}`),
});
export type DailyRunsQuery = z.infer<typeof DailyRunsQuerySchema>;

const count = () => z.int().nonnegative();
const date = () => z.iso.date().describe("UTC day, YYYY-MM-DD");

export const DailyRunSchema = z.object({
  key: z.string().describe("test_run_key: opens the run"),
  name: z.string(),
  executor: z.string(),
  url: z.string().nullable().describe("The run's base URL"),
  createdAt: z.iso.datetime({ offset: true }),
  total: count(),
  passed: count(),
  failed: count().describe("Failures that are not unstable"),
  unstable: count().describe("Failures of '@unstable' tests, counted out of failed"),
  skipped: count(),
});
export type DailyRun = z.infer<typeof DailyRunSchema>;

export const DailyPointSchema = z.object({
  date: date(),
  total: count(),
  passed: count(),
  failed: count(),
  unstable: count(),
  skipped: count(),
  /** Runs of that day, oldest first: a click on the day lists them. */
  runs: z.array(DailyRunSchema),
});
export type DailyPoint = z.infer<typeof DailyPointSchema>;

export const DailyChartSchema = z.object({
  executor: z.string().describe("The executor name whose runs are charted"),
  /** Sites (frontend) or envs (backend) that count, from the catalogue. */
  targets: z.array(z.string()),
  /** Every day of the period, oldest first; a day without runs is all zeros. */
  days: z.array(DailyPointSchema),
});
export type DailyChart = z.infer<typeof DailyChartSchema>;

export const RerunListSchema = z.object({
  executor: z.string().describe("The rerun-failed executor name whose runs are listed"),
  targets: z.array(z.string()),
  /** Newest first. */
  runs: z.array(DailyRunSchema),
});
export type RerunList = z.infer<typeof RerunListSchema>;

/** Pass rate of a day in percent (one decimal), or null for a day without tests. */
export function passRate(point: Pick<DailyPoint, "total" | "passed">): number | null {
  if (point.total === 0) return null;
  return Math.round((point.passed / point.total) * 1000) / 10;
}

/**
 * The latest day with runs and its pass rate against the day with runs before it, for the figure
 * beside each chart; undefined when the period has no runs.
 */
export function latestPassRate(
  days: readonly DailyPoint[],
): { date: string; rate: number; change: number | null } | undefined {
  const withRuns = days.filter((d) => d.total > 0);
  const latest = withRuns.at(-1);
  if (!latest) return undefined;
  const rate = passRate(latest) ?? 0;
  const before = withRuns.at(-2);
  const previous = before ? passRate(before) : null;
  return {
    date: latest.date,
    rate,
    change: previous === null ? null : Math.round((rate - previous) * 10) / 10,
  };
}
