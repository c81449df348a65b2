import { FLAKY_DEFAULT_MIN_RESULTS, FLAKY_DEFAULT_WINDOW } from "@assay/core";
import { z } from "zod";
import { envProblems } from "./config-errors.js";

/**
 * Flaky tests' settings (issue 35; docs/configuration.md "Flaky tests"), from the environment
 * through config.ts.
 */
export interface FlakySettings {
  /** ASSAY_FLAKY_WINDOW: the last N results of a test in a context that its figures read. */
  window: number;
  /** ASSAY_FLAKY_THRESHOLD: a test is flaky when its score is at least this. */
  threshold: number;
  /** ASSAY_FLAKY_DECAY: how much less each older flip weighs than the next newer one. */
  decay: number;
  /** ASSAY_FLAKY_MIN_RESULTS: a window of fewer results is not flaky, whatever its score. */
  minResults: number;
}

/**
 * The defaults: 30 results, flaky from a score of 0.1 over at least 5 results, each older flip
 * weighing 10% less.
 */
export const FLAKY_DEFAULTS: FlakySettings = {
  window: FLAKY_DEFAULT_WINDOW,
  threshold: 0.1,
  decay: 0.1,
  minResults: FLAKY_DEFAULT_MIN_RESULTS,
};

const between = (low: number, high: number, what: string) =>
  z.coerce
    .number({ error: `expected ${what} from ${low} to ${high}` })
    .min(low, `expected ${what} from ${low} to ${high}`)
    .max(high, `expected ${what} from ${low} to ${high}`);

export const FlakyEnvSchema = z.object({
  ASSAY_FLAKY_WINDOW: between(5, 200, "a whole number")
    .int("expected a whole number from 5 to 200")
    .default(FLAKY_DEFAULTS.window),
  ASSAY_FLAKY_THRESHOLD: between(0.01, 1, "a number").default(FLAKY_DEFAULTS.threshold),
  ASSAY_FLAKY_DECAY: between(0, 0.5, "a number").default(FLAKY_DEFAULTS.decay),
  ASSAY_FLAKY_MIN_RESULTS: between(2, 200, "a whole number")
    .int("expected a whole number from 2 to 200")
    .default(FLAKY_DEFAULTS.minResults),
});

export function readFlakyConfig(
  env: NodeJS.ProcessEnv,
): { config: FlakySettings } | { problems: string[] } {
  const parsed = FlakyEnvSchema.safeParse(env);
  if (!parsed.success) return { problems: envProblems(parsed.error, env) };
  const { ASSAY_FLAKY_WINDOW: window, ASSAY_FLAKY_MIN_RESULTS: minResults } = parsed.data;
  // A minimum above the window could never be met: no test would ever be flaky.
  if (minResults > window) {
    return {
      problems: [
        `ASSAY_FLAKY_MIN_RESULTS: expected at most ASSAY_FLAKY_WINDOW (${window}), got ${minResults}`,
      ],
    };
  }
  return {
    config: {
      window,
      threshold: parsed.data.ASSAY_FLAKY_THRESHOLD,
      decay: parsed.data.ASSAY_FLAKY_DECAY,
      minResults,
    },
  };
}
