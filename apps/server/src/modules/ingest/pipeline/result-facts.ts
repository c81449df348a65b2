import type { ResultInput } from "@assay/core";
import type pg from "pg";
import { storedText } from "../encoding/copy.js";
import { storeFacts } from "./results.repo.js";
import type { RunFacts } from "./result-rows.js";

/*
 * A result's run facts (site, version, commit, browser, platform, executor, branch, base URL)
 * are stored once per distinct tuple in result_facts, and its row holds the tuple's id
 * (facts_id, migration 0222; docs/architecture.md, "A result's run facts stored once"). The
 * preparer numbers the upload's tuples as it meets them (usually one: the facts of the run); the
 * writer stores each new one before the first row that has it and puts its id in the rows.
 */

/** A result's facts in the order of db/results-sql.ts FACT_COLUMNS; null where it has none. */
export type FactValues = (string | null)[];

/** What a batch says of its rows' facts. */
export interface BatchFacts {
  /** The tuples its rows are the first of the upload to have, with their numbers. */
  added: { n: number; values: FactValues }[];
  /**
   * Which tuple each row has, in row order, as pairs: a tuple's number (NO_FACTS: none), then
   * how many rows in a row have it. A daily run's batch is one pair.
   */
  runs: number[];
}

/** In BatchFacts.runs: rows with no fact at all, whose facts_id is NULL. */
export const NO_FACTS = -1;

export const emptyBatchFacts = (): BatchFacts => ({ added: [], runs: [] });

/** The facts of `result` as its row stores them: the run's where it states none. */
export function factValues(result: ResultInput, run: RunFacts): FactValues {
  return [
    result.nora_site ?? run.nora_site,
    result.version,
    result.commit_hash ?? run.commit_hash,
    result.chrome_version,
    result.platform,
    result.executor ?? run.executor,
    result.branch ?? run.branch,
    result.baseurl ?? run.baseurl,
  ].map(storedText); // before the tuple is keyed, so that two tuples stored alike are one
}

/** Numbers an upload's distinct tuples of facts (the preparer's side). */
export class UploadFacts {
  private readonly numbers = new Map<string, number>();
  /** The last tuple met and its number: results in a row nearly always share it. */
  private last: FactValues = [];
  private lastNumber = NO_FACTS;

  /** Notes the facts of the batch's next row; a tuple new to the upload goes to `into.added`. */
  add(values: FactValues, into: BatchFacts): void {
    const n = this.numberOf(values, into);
    const runs = into.runs;
    if (runs.length > 0 && runs[runs.length - 2] === n) runs[runs.length - 1]!++;
    else runs.push(n, 1);
  }

  private numberOf(values: FactValues, into: BatchFacts): number {
    if (values.every((value, i) => value === this.last[i])) return this.lastNumber;
    this.last = values;
    if (values.every((value) => value === null)) return (this.lastNumber = NO_FACTS);
    const key = JSON.stringify(values);
    let n = this.numbers.get(key);
    if (n === undefined) {
      n = this.numbers.size;
      this.numbers.set(key, n);
      into.added.push({ n, values });
    }
    return (this.lastNumber = n);
  }
}

/** The ids of an upload's tuples in result_facts, by their numbers (the writer's side). */
export class FactIds {
  private readonly ids: number[] = [];

  /** Whether the batch has tuples not stored yet (a statement, which the open COPY must end for). */
  needsQuery(facts: BatchFacts): boolean {
    return facts.added.length > 0;
  }

  /** Stores the batch's new tuples (one statement), then gives each of its rows its facts_id. */
  async resolve(client: pg.PoolClient, facts: BatchFacts): Promise<(number | null)[]> {
    if (facts.added.length > 0) {
      const ids = await storeFacts(
        client,
        facts.added.map((tuple) => tuple.values),
      );
      facts.added.forEach((tuple, i) => (this.ids[tuple.n] = ids[i]!));
    }
    const rows: (number | null)[] = [];
    for (let i = 0; i < facts.runs.length; i += 2) {
      const n = facts.runs[i]!;
      const id = n === NO_FACTS ? null : this.ids[n]!;
      for (let count = facts.runs[i + 1]!; count > 0; count--) rows.push(id);
    }
    return rows;
  }
}
