import type { Rng } from "./prng.js";
import { isPending, type Attempt } from "./demo-outcomes.js";
import type { PlannedResult } from "./demo-run-types.js";
import type { DemoTest } from "./demo-tests.js";

/** Helpers of the demo plan: run keys, parallel runners, and which results keep screenshots. */

export const MINUTE = 60_000;
export const DAY = 24 * 60 * MINUTE;

/** The key a CI job would get from newRunKey, with the suffix drawn from the plan's stream. */
export function runKey(family: string, start: Date, rng: Rng): string {
  const stamp = start
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  return `${family}-${stamp}-${rng.hex(6)}`;
}

export interface Scheduled {
  test: DemoTest;
  start: Date;
  attempts: Attempt[];
}

/** Spreads tests over parallel runners; each runner takes the next test when it is free. */
export function schedule(
  start: Date,
  lanes: number,
  planned: readonly { test: DemoTest; attempts: Attempt[] }[],
): { results: Scheduled[]; end: Date } {
  const free = Array.from({ length: lanes }, () => start.getTime());
  const results: Scheduled[] = [];
  for (const { test, attempts } of planned) {
    const lane = free.indexOf(Math.min(...free));
    const at = free[lane]!;
    results.push({ test, start: new Date(at), attempts });
    free[lane] = at + attempts.reduce((sum, a) => sum + a.durationMs, 0) + 2_000;
  }
  return { results, end: new Date(Math.max(...free)) };
}

// Screenshots are bounded so the demo loads fast: one test per run keeps every step's, and a
// run's first failures keep theirs (a rerun's failures were already shot in the daily run).
const ERROR_SCREENSHOTS_PER_RUN = 5;

/** Marks the results that carry screenshots. */
export function withScreenshots(results: Scheduled[], rng: Rng, ui: boolean): PlannedResult[] {
  const planned = results.map((r) => ({ ...r, stepScreenshots: false, errorScreenshot: false }));
  if (!ui) return planned;
  const stepped = rng.pick(planned);
  stepped.stepScreenshots = true;
  planned
    .filter((r) => {
      const last = r.attempts[r.attempts.length - 1]!;
      return !last.passed && !isPending(last);
    })
    .slice(0, ERROR_SCREENSHOTS_PER_RUN)
    .forEach((r) => (r.errorScreenshot = true));
  return planned;
}
