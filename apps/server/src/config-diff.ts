import { z } from "zod";
import { envProblems } from "./config-errors.js";

/**
 * The run diff's settings (docs/configuration.md "Run diff"), from the environment through
 * config.ts. A test is slower in the later run when it took more than both the share and the
 * time longer: a share alone flags a 2 ms test that took 4 ms, a time alone every long test's
 * noise.
 */

export interface DiffSettings {
  /** Slower by more than this percent of the earlier duration... */
  slowerPercent: number;
  /** ...and by more than this many milliseconds. */
  slowerMs: number;
}

export const DiffEnvSchema = z.object({
  ASSAY_DIFF_SLOWER_PERCENT: z.coerce
    .number({ error: "expected a number of percent, e.g. 20" })
    .min(0, "expected a number of percent from 0 to 10000")
    .max(10_000, "expected a number of percent from 0 to 10000")
    .default(20),
  ASSAY_DIFF_SLOWER_MS: z.coerce
    .number({ error: "expected a number of milliseconds, e.g. 500" })
    .min(0, "expected a number of milliseconds from 0 to 86400000")
    .max(86_400_000, "expected a number of milliseconds from 0 to 86400000")
    .default(500),
});

/** The settings, or one line per bad variable (config.ts stops the start with them). */
export function readDiffSettings(
  env: NodeJS.ProcessEnv,
): { settings: DiffSettings } | { problems: string[] } {
  const parsed = DiffEnvSchema.safeParse(env);
  if (!parsed.success) return { problems: envProblems(parsed.error, env) };
  return {
    settings: {
      slowerPercent: parsed.data.ASSAY_DIFF_SLOWER_PERCENT,
      slowerMs: parsed.data.ASSAY_DIFF_SLOWER_MS,
    },
  };
}
