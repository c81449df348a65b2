import type { ResultInput } from "@assay/core";
import { RunTally } from "./finalize-run.js";
import type { UploadFiles } from "./parsers/types.js";
import { derivedTestRunTestId, encodeResultTail, type RunFacts } from "./result-rows.js";
import { RowBuffer } from "./row-buffer.js";
import { explicitTestId, identityOf, type BatchTests, type Family } from "./test-ids.js";

export interface PreparerOptions {
  /** The run the results go to. */
  runId: number;
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
  result: ResultInput;
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
  tests: BatchTests;
  children: PreparedChild[];
}

/** What an upload's preparation found besides its batches, once every result is through. */
export interface PreparedSummary {
  duplicates: number;
  tally: RunTally;
  /** test_run_test_ids of the attempts of tests with more than one here: finalizeRun ranks them. */
  retried: string[];
}

const DEFAULT_BATCH_SIZE = 2000;

/**
 * Turns parsed results into batches of COPY rows, JavaScript only: identities, run-wide ids,
 * duplicates skipped, counts tallied, rows encoded. Done as each result is parsed, so that its
 * objects die young (cheap for the GC). Runs where the parsing runs: in the upload's parse worker
 * (parse-worker.ts), or in the request's thread for the live API.
 */
export class ResultPreparer {
  private readonly seenInUpload = new Map<string, number>();
  /** Identity -> test_run_test_id of the first result of each test of the upload. */
  private readonly testsInUpload = new Map<string, string>();
  private readonly retried = new Set<string>();
  private readonly existing: Set<string>;
  private readonly spareRows: RowBuffer[] = [];
  private batch: PreparedBatch;
  private duplicates = 0;
  private readonly tally = new RunTally();

  constructor(private readonly options: PreparerOptions) {
    this.existing = new Set(options.existing);
    this.batch = this.newBatch();
  }

  /** Adds a result; returns the batch it completed, if any. */
  add({ result, files }: QueuedResult): PreparedBatch | undefined {
    const { family, testIdPattern } = this.options;
    const identity = identityOf(family, result.file, result.suite_path ?? [], result.name);
    const testRunTestId = this.testRunTestId(result, identity);
    if (this.existing.has(testRunTestId)) {
      this.duplicates++;
      return undefined;
    }
    this.existing.add(testRunTestId);
    this.tally.add(result);
    // An id the result states outright wins over one read from its tags or title.
    const explicitId =
      result.test_id ??
      explicitTestId(
        { tags: result.tags ?? [], texts: [result.title, result.name] },
        testIdPattern,
      );
    // Attempts of one test share its identity (their stable ids may differ: tags per attempt).
    const first = this.testsInUpload.get(identity);
    if (first === undefined) {
      this.testsInUpload.set(identity, testRunTestId);
    } else {
      this.retried.add(first).add(testRunTestId);
    }
    const batch = this.batch;
    if (result.attachments?.length || result.api_requests?.length) {
      batch.children.push({ index: batch.rows.rows, result, files });
    }
    const { tests } = batch;
    tests.identities.push(identity);
    tests.explicitIds.push(explicitId ?? null);
    tests.titles.push(result.title ?? result.name);
    tests.files.push(result.file ?? null);
    const place = { runId: this.options.runId, testRunTestId };
    batch.rows.append(encodeResultTail(place, result, this.options.runFacts));
    if (batch.rows.rows < (this.options.batchSize ?? DEFAULT_BATCH_SIZE)) {
      return undefined;
    }
    this.batch = this.newBatch();
    return batch;
  }

  /** The last, partial batch, if any. */
  flush(): PreparedBatch | undefined {
    const batch = this.batch;
    this.batch = this.newBatch();
    return batch.rows.rows > 0 ? batch : undefined;
  }

  /** A written batch's row buffer, for a later batch to reuse. */
  recycle(rows: RowBuffer): void {
    rows.clear();
    this.spareRows.push(rows);
  }

  /** Complete once every result has been added. */
  done(): PreparedSummary {
    return { duplicates: this.duplicates, tally: this.tally, retried: [...this.retried] };
  }

  private newBatch(): PreparedBatch {
    const rows = this.spareRows.pop() ?? new RowBuffer();
    const tests: BatchTests = { identities: [], explicitIds: [], titles: [], files: [] };
    return { rows, tests, children: [] };
  }

  /** An explicit id, or one derived from the test's identity; repeats within one upload get a suffix. */
  private testRunTestId(result: ResultInput, identity: string): string {
    const base = result.test_run_test_id ?? derivedTestRunTestId(identity, result.attempt ?? 0);
    const seen = this.seenInUpload.get(base) ?? 0;
    this.seenInUpload.set(base, seen + 1);
    return seen === 0 ? base : `${base}~${seen + 1}`;
  }
}

/** The batches of `source`, prepared in this thread. */
export async function* prepareInThread(
  preparer: ResultPreparer,
  source: AsyncIterable<QueuedResult> | Iterable<QueuedResult>,
): AsyncGenerator<PreparedBatch> {
  for await (const queued of source) {
    const full = preparer.add(queued);
    if (full) yield full;
  }
  const last = preparer.flush();
  if (last) yield last;
}
