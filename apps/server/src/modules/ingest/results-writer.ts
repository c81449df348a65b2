import type { ResultInput } from "@assay/core";
import type pg from "pg";
import { OpenCopy } from "./open-copy.js";
import { RunTally, type Ranking } from "./finalize-run.js";
import type { UploadFiles } from "./parsers/types.js";
import { ResultIds } from "./result-ids.js";
import { writeResultChildren, type AttachmentSink } from "./result-children.js";
import {
  derivedTestRunTestId,
  encodeResultTail,
  RESULT_COLUMNS,
  resultHead,
  type RunFacts,
} from "./result-rows.js";
import { RowBuffer } from "./row-buffer.js";
import {
  catalogueKey,
  explicitTestId,
  identityOf,
  TestIdResolver,
  type Family,
  type KnownTests,
  type TestIdentity,
} from "./test-ids.js";

export type { AttachmentSink };

export interface WriterOptions {
  runId: number;
  family: Family;
  testIdPattern: RegExp;
  attachments: AttachmentSink;
  knownTests: KnownTests;
  /** Facts of the whole run for results whose report does not carry them (see RunFacts). */
  runFacts?: RunFacts;
  /** test_run_test_ids the run already holds: results with these are duplicates, skipped. */
  existing: Set<string>;
  batchSize?: number;
}

export interface WriteSummary {
  inserted: number;
  duplicates: number;
  attachments: number;
  /** Attachment references with no matching uploaded file. */
  missingAttachments: string[];
}

/** A result and the files its attachment paths refer to (its report's, or the upload's). */
export interface QueuedResult {
  result: ResultInput;
  files: UploadFiles;
}

/** What a result waits for its batch as: its row already encoded, the parsed objects let go. */
interface PreparedResult {
  testRunTestId: string;
  /** The stable id when the catalogue already knows the test, else what registers it. */
  test: number | TestIdentity;
  /** Kept only for results with attachments or API requests (few), to write those rows. */
  children: QueuedResult | undefined;
}

/** A batch: its results, and their rows (every column after test_id) encoded in `rows`. */
interface Batch {
  results: PreparedResult[];
  rows: RowBuffer;
}

/**
 * Batches waiting for (or in) the database while the next one is parsed. Two keep PostgreSQL
 * busy while parsing runs ahead, and bound the memory an upload holds whatever its size.
 */
const MAX_BATCHES_IN_FLIGHT = 2;

/**
 * Writes parsed results to PostgreSQL in batches inside the caller's transaction: stable test
 * ids resolved per batch, results and API requests by COPY, attachments streamed to object
 * storage first. The database works on one batch while the next is parsed, so an upload takes
 * about the longer of the two, not their sum.
 */
export class ResultsWriter {
  private readonly seenInUpload = new Map<string, number>();
  /** Identity -> explicit id (or none) of the first result of each test of the upload. */
  private readonly testsInUpload = new Map<string, number | undefined>();
  /** Catalogue keys of tests with more than one result here: finalizeRun ranks their attempts. */
  private readonly retried: string[] = [];
  /** Whether the run held results before this upload (any test may then have two attempts). */
  private readonly runHadResults: boolean;
  private readonly tests: TestIdResolver;
  private readonly resultIds = new ResultIds();
  private readonly copy: OpenCopy;
  /** Row buffers of written batches, reused: an upload needs MAX_BATCHES_IN_FLIGHT + 1. */
  private readonly spareRows: RowBuffer[] = [];
  private aborted = false;
  readonly summary: WriteSummary;
  /** The counts of what this upload wrote, for finalizeRun. */
  readonly tally = new RunTally();

  constructor(
    private readonly client: pg.PoolClient,
    private readonly options: WriterOptions,
  ) {
    this.tests = new TestIdResolver(options.knownTests, options.family);
    this.copy = new OpenCopy(client, `COPY results (${RESULT_COLUMNS.join(", ")}) FROM STDIN`);
    this.summary = {
      inserted: 0,
      duplicates: 0,
      attachments: 0,
      missingAttachments: [],
    };
    this.runHadResults = options.existing.size > 0;
  }

  /** Which tests finalizeRun must rank, once write() is done. */
  ranking(): Ranking {
    if (this.runHadResults) return "all";
    if (this.retried.length === 0) return "none";
    return [...new Set(this.retried.map((key) => this.tests.knownId(key)!))];
  }

  /** Catalogue entries this upload looked up or made: for KnownTests once it has committed. */
  get learnedTests(): ReadonlyMap<string, number> {
    return this.tests.learned;
  }

  /**
   * Writes every result of `source`; once it returns, every row is stored. When reading the
   * source or writing fails, batches not yet started are dropped, the one in progress is awaited
   * and the open COPY abandoned before the error is rethrown, so the caller's ROLLBACK is the
   * last thing the connection runs.
   */
  async write(source: AsyncIterable<QueuedResult> | Iterable<QueuedResult>): Promise<void> {
    const batchSize = this.options.batchSize ?? 2000;
    const inFlight: Promise<void>[] = [];
    let chain = Promise.resolve();
    let batch = this.newBatch();
    const handOff = async () => {
      const full = batch;
      batch = this.newBatch();
      if (full.results.length === 0) return;
      chain = chain.then(() => this.writeBatch(full));
      // Awaited below or in the catch; this only keeps a failure from counting as unhandled.
      chain.catch(() => undefined);
      inFlight.push(chain);
      while (inFlight.length > MAX_BATCHES_IN_FLIGHT) await inFlight.shift();
    };
    try {
      for await (const queued of source) {
        if (this.prepare(queued, batch) && batch.results.length >= batchSize) await handOff();
      }
      await handOff();
      await chain;
      await this.copy.end();
    } catch (error) {
      this.aborted = true;
      await chain.catch(() => undefined);
      await this.copy.abort();
      throw error;
    }
  }

  private newBatch(): Batch {
    return { results: [], rows: this.spareRows.pop() ?? new RowBuffer() };
  }

  /**
   * Adds a result to the batch: its identities, run-wide id and encoded row; false for a
   * duplicate. JavaScript only: done as each result is parsed, so that its objects die young
   * (cheap for the GC).
   */
  private prepare({ result, files }: QueuedResult, batch: Batch): boolean {
    const { family, testIdPattern, existing } = this.options;
    const identity = identityOf(family, result.file, result.suite_path ?? [], result.name);
    const testRunTestId = this.testRunTestId(result, identity);
    if (existing.has(testRunTestId)) {
      this.summary.duplicates++;
      return false;
    }
    existing.add(testRunTestId);
    this.tally.add(result);
    // An id the result states outright wins over one read from its tags or title.
    const explicitId =
      result.test_id ??
      explicitTestId(
        { tags: result.tags ?? [], texts: [result.title, result.name] },
        testIdPattern,
      );
    const test: TestIdentity = {
      explicitId,
      identity,
      key: catalogueKey(family, explicitId, identity),
      title: result.title ?? result.name,
      file: result.file,
    };
    if (!this.testsInUpload.has(identity)) {
      this.testsInUpload.set(identity, explicitId);
    } else {
      // Attempts of one test share its identity; their stable ids may differ (tags per attempt).
      const first = catalogueKey(family, this.testsInUpload.get(identity), identity);
      this.retried.push(first, test.key);
    }
    const hasChildren = !!(result.attachments?.length || result.api_requests?.length);
    batch.results.push({
      testRunTestId,
      // A known test keeps only its id: the title and file are slices of the report's text and
      // would keep the whole chunk they came from alive until the batch is written.
      test: this.tests.knownId(test.key) ?? test,
      children: hasChildren ? { result, files } : undefined,
    });
    batch.rows.append(encodeResultTail(result, this.options.runFacts));
    return true;
  }

  private async writeBatch({ results, rows }: Batch): Promise<void> {
    if (this.aborted) return;
    const tests = results.map((r) => r.test);
    // Statements cannot run while the COPY is open: most batches of a daily run need none.
    if (this.tests.needsQuery(tests) || this.resultIds.needsQuery(results.length))
      await this.copy.end();
    const testIds = await this.tests.resolve(this.client, tests);
    const ids = await this.resultIds.take(this.client, results.length);
    const { runId } = this.options;
    await this.copy.write(
      rows.chunks((i) =>
        resultHead({
          id: ids[i]!,
          runId,
          testRunTestId: results[i]!.testRunTestId,
          testId: testIds[i]!,
        }),
      ),
    );
    rows.clear();
    this.spareRows.push(rows);
    const withChildren = results.flatMap((r, i) =>
      r.children ? [{ id: ids[i]!, ...r.children }] : [],
    );
    if (withChildren.length > 0) {
      await this.copy.end();
      const written = await writeResultChildren(
        this.client,
        runId,
        this.options.attachments,
        withChildren,
      );
      this.summary.attachments += written.attachments;
      this.summary.missingAttachments.push(...written.missing);
    }
    this.summary.inserted += results.length;
  }

  /** An explicit id, or one derived from the test's identity; repeats within one upload get a suffix. */
  private testRunTestId(result: ResultInput, identity: string): string {
    const base = result.test_run_test_id ?? derivedTestRunTestId(identity, result.attempt ?? 0);
    const seen = this.seenInUpload.get(base) ?? 0;
    this.seenInUpload.set(base, seen + 1);
    return seen === 0 ? base : `${base}~${seen + 1}`;
  }
}
