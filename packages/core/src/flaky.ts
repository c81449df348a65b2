/**
 * Flakiness arithmetic (issue 35): one test in one job context, over its last N results, oldest
 * first. Each result is one letter: p passed, f failed, r passed on a retry in the same run (the
 * code did not change between the two attempts: the strongest single sign). Skipped and pending
 * results are not outcomes and never enter a window.
 */

export type Outcome = "p" | "f" | "r";

/** The '@unstable' suggestion and the list's default: a window this long. */
export const FLAKY_DEFAULT_WINDOW = 30;

/**
 * The list's default least evidence: a window of fewer results is not called flaky whatever its
 * score. Two results that differ score 1.00, above a test seen flipping 12 times in 30; one flip
 * is a signal to look, not a rate (docs/flaky.md, "Too few results"). Five: the history Allure 3
 * reads (issue 35), and what CI flaky detectors such as testglance wait for before they say.
 */
export const FLAKY_DEFAULT_MIN_RESULTS = 5;

/** z for a 95% Wilson score interval. */
const Z95 = 1.96;

export interface FlakyFigures {
  /** Results in the window. */
  results: number;
  /** Results that flipped: a status unlike the one before, or a pass on retry. */
  flips: number;
  /** flips / (results - 1), at most 1; 0 under two results. */
  flipRate: number;
  /** The flip rate with the newest transitions weighted most (the score). */
  weightedFlipRate: number;
  failures: number;
  failureRate: number;
  /** Wilson 95% interval of the failure rate. */
  failureRateLow: number;
  failureRateHigh: number;
  retriesPassed: number;
  /** Index in the window of the newest flip, or -1. */
  lastFlip: number;
}

/**
 * Wilson score interval of k failures in n results (z = 1.96): one failure in 20 is anywhere
 * from about 1% to 24%, a signal to look rather than a measurement.
 */
export function wilsonInterval(k: number, n: number, z = Z95): { low: number; high: number } {
  if (n <= 0) return { low: 0, high: 1 };
  const p = k / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/**
 * Whether a window is flaky: its score reaches the threshold over at least `minResults` results.
 * The score itself is kept as measured: it is the evidence, the rule is what is done with it.
 */
export function isFlaky(
  window: { score: number; results: number },
  rule: { threshold: number; minResults: number },
): boolean {
  return window.score > 0 && window.score >= rule.threshold && window.results >= rule.minResults;
}

/** Whether result `i` of a window flipped (the first one flips only when passed on retry). */
export function flippedAt(outcomes: string, i: number): boolean {
  const now = outcomes[i];
  if (now === "r") return true;
  if (i === 0 || now === undefined) return false;
  const failedNow = now === "f";
  const failedBefore = outcomes[i - 1] === "f";
  return failedNow !== failedBefore;
}

/**
 * The figures of a window. `decay` (0..1) is how much less each older transition weighs than
 * the next newer one (Apple's exponentially weighted flip rate, Kowalczyk et al. 2020): a test
 * that flipped long ago and is stable now ranks low.
 */
export function flakyFigures(outcomes: string, decay: number): FlakyFigures {
  const n = outcomes.length;
  let flips = 0;
  let failures = 0;
  let retriesPassed = 0;
  let weighted = 0;
  let weights = 0;
  let lastFlip = -1;
  for (let i = 0; i < n; i++) {
    const outcome = outcomes[i];
    if (outcome === "f") failures++;
    if (outcome === "r") retriesPassed++;
    const flipped = flippedAt(outcomes, i);
    if (flipped) {
      flips++;
      lastFlip = i;
    }
    // Transitions are the n-1 steps after the first result; a retry on the first counts too.
    if (i > 0 || flipped) {
      const weight = Math.pow(1 - decay, n - 1 - i);
      weights += weight;
      if (flipped) weighted += weight;
    }
  }
  const steps = Math.max(n - 1, 1);
  const { low, high } = wilsonInterval(failures, n);
  return {
    results: n,
    flips,
    flipRate: n < 2 && retriesPassed === 0 ? 0 : Math.min(1, flips / steps),
    weightedFlipRate: weights === 0 ? 0 : Math.min(1, weighted / weights),
    failures,
    failureRate: n === 0 ? 0 : failures / n,
    failureRateLow: low,
    failureRateHigh: high,
    retriesPassed,
    lastFlip,
  };
}

/**
 * The window after a run's result: the run's earlier entry is replaced (a live run read again
 * when it finishes, a report appended to a run), else the result is appended; then only the
 * newest `size` stay.
 */
export function nextWindow(
  window: { outcomes: string; runIds: readonly number[] },
  outcome: Outcome,
  runId: number,
  size: number,
): { outcomes: string; runIds: number[] } {
  const at = window.runIds.indexOf(runId);
  if (at >= 0) {
    const outcomes = window.outcomes.slice(0, at) + outcome + window.outcomes.slice(at + 1);
    return { outcomes, runIds: [...window.runIds] };
  }
  const outcomes = (window.outcomes + outcome).slice(-size);
  const runIds = [...window.runIds, runId].slice(-size);
  return { outcomes, runIds };
}

/** A full window of passes: nothing to keep up to date until the test fails again. */
export function isSettled(outcomes: string, size: number): boolean {
  return outcomes.length >= size && /^p*$/.test(outcomes);
}
