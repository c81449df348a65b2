import { Rng } from "./prng.js";
import { withTicket, type DemoTest } from "./demo-tests.js";
import {
  API_FAILURES,
  API_FLAKY_FAILURES,
  FLAKY_FAILURES,
  UI_FAILURES,
} from "./demo-vocabulary.js";

/** One try of a test. A pending failure carries "Pending reason == ..." in its message. */
export interface Attempt {
  passed: boolean;
  message?: string;
  /** A one-off failure of a stable test (it passes when tried again). */
  transient?: boolean;
  durationMs: number;
}

/** Where an attempt happens: the day, and whether it is a person's run after the last daily. */
export interface Occasion {
  day: number;
  /** A person's run on the last day: where the "late" tests fail. */
  latePersonRun: boolean;
  /** A stream of the run, for the one-off failures and durations. */
  rng: Rng;
}

// Flaky tests fail on a fixed rhythm rather than by chance, so that any three days hold one of
// their failures and a three-day demo shows them as reliably as a sixty-day one.
const FLAKY_PERIOD = 3;
const FLAKY_STUBBORN_PERIOD = 9;
const ONE_OFF_FAILURE = 0.003;
/** A failing UI step usually waits for its timeout before giving up. */
const UI_TIMEOUT_MS = 30_000;

function failingOn(test: DemoTest, day: number): boolean {
  switch (test.fate) {
    case "flaky":
      return (day + test.id) % FLAKY_PERIOD === 0;
    case "steady":
    case "pending":
    case "recent":
    case "new":
      return day >= test.failSince;
    case "fixed":
      return (day >= test.failSince && day < test.fixedAt) || day >= test.relapseOn;
    default:
      return false;
  }
}

function duration(test: DemoTest, passed: boolean, rng: Rng): number {
  const base = Math.round(test.durationMs * (0.8 + rng.float() * 0.4));
  if (passed) return base;
  return test.suite === "api" ? base : Math.round(base / 2) + UI_TIMEOUT_MS;
}

function failed(test: DemoTest, message: string, rng: Rng, transient = false): Attempt {
  return {
    passed: false,
    message,
    durationMs: duration(test, false, rng),
    ...(transient ? { transient } : {}),
  };
}

/** The first attempt of a test on an occasion. */
export function firstAttempt(test: DemoTest, at: Occasion): Attempt {
  const { rng } = at;
  if (test.fate === "late" && at.latePersonRun) return failed(test, test.message, rng);
  if (test.fate === "flaky" && failingOn(test, at.day)) {
    return failed(test, rng.pick(test.suite === "api" ? API_FLAKY_FAILURES : FLAKY_FAILURES), rng);
  }
  if (failingOn(test, at.day)) return failed(test, test.message, rng);
  if (test.fate === "stable" && rng.chance(ONE_OFF_FAILURE)) {
    const pool = test.suite === "api" ? API_FAILURES : UI_FAILURES;
    return failed(test, withTicket(rng.pick(pool), rng), rng, true);
  }
  return { passed: true, durationMs: duration(test, true, rng) };
}

/** Spec 4: a failure whose message holds "Pending reason" counts as skipped. */
export function isPending(attempt: Attempt): boolean {
  return attempt.message?.includes("Pending reason") ?? false;
}

/**
 * The next attempt after a failed one (a retry in the same run, or the rerun-failed run): flaky
 * and one-off failures pass, except a flaky test's stubborn days, when the first retry fails too.
 */
export function retryAttempt(
  test: DemoTest,
  previous: Attempt,
  at: Occasion,
  retryNumber: number,
): Attempt {
  const stubborn = (at.day + test.id) % FLAKY_STUBBORN_PERIOD === 0 && retryNumber === 1;
  const recovers = previous.transient === true || (test.fate === "flaky" && !stubborn);
  if (recovers) return { passed: true, durationMs: duration(test, true, at.rng) };
  return { ...previous, durationMs: duration(test, false, at.rng) };
}

/** Attempts of a test in a run: the first, then one retry if the run retries and it failed. */
export function attemptsOf(test: DemoTest, at: Occasion, retries: boolean): Attempt[] {
  const first = firstAttempt(test, at);
  if (!retries || first.passed || isPending(first)) return [first];
  return [first, retryAttempt(test, first, at, 1)];
}
