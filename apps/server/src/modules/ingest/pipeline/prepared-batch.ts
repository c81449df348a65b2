import type { ResultInput } from "@assay/core";
import type { RowBuffer } from "../encoding/row-buffer.js";
import type { ParsedResult, UploadFiles } from "../parsers/types.js";
import type { BatchTests } from "../test-ids/batch-tests.js";
import type { Family } from "../test-ids/test-identity.js";
import type { BatchFacts } from "./result-facts.js";
import type { RunFacts } from "./result-rows.js";
import type { RunTally } from "./run-tally.js";

/*
 * What preparing an upload's results (result-preparer.ts) takes and gives: its options and
 * queued results in; batches of encoded rows and a summary out, which the results writer, the
 * parse worker and its pool pass on. Split from result-preparer.ts for size.
 */

export interface PreparerOptions {
  /** The run the results go to. */
  runId: number;
  /** The run's created_at as ISO text: the partition key of its results (RunRow.run_at). */
  runAt: string;
  family: Family;
  testIdPattern: RegExp;
  /** Facts of the whole run for results whose report does not carry them (see RunFacts). */
  runFacts?: RunFacts;
  /** test_run_test_ids the run already holds: results with these are duplicates, skipped. */
  existing: Iterable<string>;
  batchSize?: number;
}

/** A result and the files its attachment paths refer to (its report's, or the upload's). */
export interface QueuedResult {
  result: ResultInput | ParsedResult;
  files: UploadFiles;
}

/** A result of a batch with rows of its own to write: attachments or API requests (few). */
export interface PreparedChild extends QueuedResult {
  /** Its position in the batch. */
  index: number;
}

/**
 * Results ready for the database: their rows already encoded (every column after test_id), the
 * parsed objects let go. The ids that lead each row are known only once the batch reaches the
 * database (ResultsWriter).
 */
export interface PreparedBatch {
  rows: RowBuffer;
  /** COPY rows of the texts its results are the first of the upload to refer to (result-texts.ts). */
  texts: RowBuffer;
  tests: BatchTests;
  /** Its rows' tuples of run facts (result-facts.ts). */
  facts: BatchFacts;
  children: PreparedChild[];
  /** Its rows' outcomes, one character a row (result-outcomes.ts). */
  outcomes: string;
}

/** What an upload's preparation found besides its batches, once every result is through. */
export interface PreparedSummary {
  duplicates: number;
  tally: RunTally;
  /**
   * Positions (0 = the first result written) of the attempts of tests with more than one here:
   * finalizeRun ranks them.
   */
  retried: number[];
}
