import { isPendingFailure, type ResultInput } from "@assay/core";
import { NO_FACTS, type BatchFacts, type FactValues } from "./result-facts.js";

/*
 * A new run's outcomes handed to flaky tests from the upload (issue 36's write path), as triage
 * takes its failures: flaky's step no longer reads the 100k results it has just written back
 * (runs/failures.repo.ts runOutcomes, 0.4-0.6 s of a 100k-test upload). The preparer gives each
 * row an outcome; the writer groups them by job context once the rows have their ids
 * (ResultsWriter.written); finalizeRun's changes (earlier attempts, tests passed on retry) are
 * applied last.
 */

/** A run's final outcomes in one job context, as flaky tests read them (issue 35). */
export interface ContextOutcomes {
  platform: string;
  /** Null where the results state none (an upload's): the run's applies. */
  branch: string | null;
  site: string | null;
  /** Test ids, and `outcomes` in step with them: p passed, f failed, r passed on retry. */
  test_ids: number[];
  outcomes: string;
}

/** In PreparedBatch.outcomes: a result that says nothing of flakiness (skipped, pending). */
const NO_OUTCOME = "-";

/**
 * A result's outcome as runOutcomes reads it once stored (before finalizeRun: every result is
 * written final and not flaky): skipped results and pending failures (spec §4) are none.
 */
export function outcomeOf(result: ResultInput): string {
  if (result.status === "passed") return "p";
  if (result.status !== "failed") return NO_OUTCOME;
  return isPendingFailure(result.error_message) ? NO_OUTCOME : "f";
}

/** What finalizeRun changed in a run its upload wrote whole: result ids by their new flag. */
export interface Finalized {
  /** Earlier attempts of tests retried here: no outcomes of the run. */
  notFinal: ReadonlySet<number>;
  /** Last attempts that passed after failing: 'r'. */
  flaky: ReadonlySet<number>;
}

// Where a context's values are in a tuple (db/results-sql.ts FACT_COLUMNS' order).
const SITE = 0;
const PLATFORM = 4;
const BRANCH = 6;

interface Context extends ContextOutcomes {
  resultIds: number[];
}

/** The writer's side: a new run's outcomes by context, as its batches are written. */
export class WrittenOutcomes {
  /** Contexts by the upload's tuple number (result-facts.ts). */
  private readonly byTuple = new Map<number, Context>();
  private readonly byKey = new Map<string, Context>();

  /** Adds a written batch's rows: `outcomes` one a row, their ids and their tuples. */
  add(
    outcomes: string,
    resultIds: readonly number[],
    testIds: readonly number[],
    facts: BatchFacts,
  ) {
    for (const { n, values } of facts.added) this.byTuple.set(n, this.contextOf(values));
    let row = 0;
    for (let i = 0; i < facts.runs.length; i += 2) {
      const n = facts.runs[i]!;
      const context = n === NO_FACTS ? this.contextOf([]) : this.byTuple.get(n)!;
      for (const end = row + facts.runs[i + 1]!; row < end; row++) {
        const outcome = outcomes[row]!;
        if (outcome === NO_OUTCOME) continue;
        context.resultIds.push(resultIds[row]!);
        context.test_ids.push(testIds[row]!);
        context.outcomes += outcome;
      }
    }
  }

  /** The run's outcomes once finalizeRun has ranked its attempts. */
  final({ notFinal, flaky }: Finalized): ContextOutcomes[] {
    return [...this.byKey.values()].flatMap(({ resultIds, test_ids, outcomes, ...context }) => {
      const kept: ContextOutcomes = { ...context, test_ids: [], outcomes: "" };
      resultIds.forEach((id, i) => {
        if (notFinal.has(id)) return;
        kept.test_ids.push(test_ids[i]!);
        kept.outcomes += flaky.has(id) ? "r" : outcomes[i]!;
      });
      return kept.test_ids.length > 0 ? [kept] : [];
    });
  }

  /** A tuple's context (rows with no facts: []), one object a context whatever its tuples. */
  private contextOf(values: FactValues): Context {
    const platform = values[PLATFORM] ?? "";
    const branch = values[BRANCH] ?? null;
    const site = values[SITE] ?? null;
    const key = JSON.stringify([platform, branch, site]);
    let context = this.byKey.get(key);
    if (!context) {
      context = { platform, branch, site, test_ids: [], outcomes: "", resultIds: [] };
      this.byKey.set(key, context);
    }
    return context;
  }
}
