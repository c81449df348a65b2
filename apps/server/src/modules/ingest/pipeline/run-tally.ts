import { deriveStatus, type ResultInput } from "@assay/core";

const NO_UNSTABLE: ReadonlySet<number> = new Set();

/** How a result counts in its run: passed, failed or pending (spec section 4). */
function countedAs(result: Pick<ResultInput, "status" | "error_message">) {
  return deriveStatus(
    { test_id: 0, status: result.status, error_message: result.error_message },
    NO_UNSTABLE,
  );
}

/**
 * The counts of the results an upload writes, kept as they are written. When they are all the
 * run has, they are the run's counts once the attempts that are not final are taken out again
 * (finalizeRun), and finalizeRun need not read the results back (most of what finishing an
 * upload cost; docs/performance.md). started_at and finished_at span every attempt.
 */
export class RunTally {
  total = 0;
  passed = 0;
  failed = 0;
  pending = 0;
  flaky = 0;
  durationMs = 0;
  // The reports' own timestamp texts, so PostgreSQL reads them exactly as it read the results'.
  private first: { at: number; text: string } | undefined;
  private last: { at: number; text: string } | undefined;

  add(result: ResultInput): void {
    this.count(result, 1);
    if (result.start_time) {
      const at = Date.parse(result.start_time);
      if (!this.first || at < this.first.at) this.first = { at, text: result.start_time };
    }
    if (result.end_time) {
      const at = Date.parse(result.end_time);
      if (!this.last || at > this.last.at) this.last = { at, text: result.end_time };
    }
  }

  /** Takes out an attempt that turned out not to be its test's last (its times stay). */
  removeAttempt(result: Pick<ResultInput, "status" | "error_message" | "duration_ms">): void {
    this.count(result, -1);
  }

  private count(
    result: Pick<ResultInput, "status" | "error_message" | "duration_ms">,
    sign: 1 | -1,
  ): void {
    this.total += sign;
    const shown = countedAs(result);
    if (shown === "passed") this.passed += sign;
    else if (shown === "skipped") this.pending += sign;
    else this.failed += sign;
    this.durationMs += sign * (result.duration_ms ?? 0);
  }

  /** A RunTally posted from another thread: structured cloning keeps its fields, not its class. */
  static from(fields: object): RunTally {
    return Object.assign(new RunTally(), fields);
  }

  /** Parameters $2.. of TALLIED_COUNTS. */
  values(): unknown[] {
    return [
      this.total,
      this.passed,
      this.failed,
      this.pending,
      this.flaky,
      this.durationMs,
      this.first?.text ?? null,
      this.last?.text ?? null,
    ];
  }
}

/**
 * Which results of the run may now be one of several attempts, so that finalizeRun must rank
 * them: all (results were there before this upload), the ids of the attempts of the tests this
 * upload sent twice or more, or none.
 */
export type Ranking = "all" | "none" | readonly number[];
