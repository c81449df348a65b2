import { z } from "zod";
import { envProblems } from "./config-errors.js";

/**
 * The load trends' regression rule (docs/configuration.md "Load trends"), from the environment
 * through config.ts. A run's endpoint regressed when its p50 or p95 is higher, or its requests per
 * second lower, than the median of the job's previous `window` runs by more than `percent`, or
 * its error rate higher by more than `errorPoints` percentage points. The median, not the mean:
 * one bad run in the window does not hide the next.
 */

export interface TrendSettings {
  window: number;
  percent: number;
  errorPoints: number;
}

export const TrendEnvSchema = z.object({
  ASSAY_TREND_WINDOW: z.coerce
    .number({ error: "expected a number of runs, e.g. 5" })
    .int("expected a whole number of runs from 1 to 50")
    .min(1, "expected a whole number of runs from 1 to 50")
    .max(50, "expected a whole number of runs from 1 to 50")
    .default(5),
  ASSAY_TREND_REGRESSION_PERCENT: z.coerce
    .number({ error: "expected a number of percent, e.g. 20" })
    .min(0, "expected a number of percent from 0 to 1000")
    .max(1000, "expected a number of percent from 0 to 1000")
    .default(20),
  ASSAY_TREND_ERROR_POINTS: z.coerce
    .number({ error: "expected a number of percentage points, e.g. 1" })
    .min(0, "expected a number of percentage points from 0 to 100")
    .max(100, "expected a number of percentage points from 0 to 100")
    .default(1),
});

/** The settings, or one line per bad variable (config.ts stops the start with them). */
export function readTrendSettings(
  env: NodeJS.ProcessEnv,
): { settings: TrendSettings } | { problems: string[] } {
  const parsed = TrendEnvSchema.safeParse(env);
  if (!parsed.success) return { problems: envProblems(parsed.error, env) };
  return {
    settings: {
      window: parsed.data.ASSAY_TREND_WINDOW,
      percent: parsed.data.ASSAY_TREND_REGRESSION_PERCENT,
      errorPoints: parsed.data.ASSAY_TREND_ERROR_POINTS,
    },
  };
}
