import type pg from "pg";
import { AppError } from "../../../errors.js";
import { OpenCopy } from "../encoding/open-copy.js";
import { RunTally, type Ranking } from "./run-tally.js";
import { ResultIds } from "./result-ids.js";
import { FactIds } from "./result-facts.js";
import { writeResultChildren, type AttachmentSink } from "./result-children.js";
import type {
  PreparedBatch,
  PreparedSummary,
  PreparerOptions,
  QueuedResult,
} from "./prepared-batch.js";
import { prepareInThread, ResultPreparer } from "./result-preparer.js";
import { RESULT_COLUMNS } from "./result-rows.js";
import { WrittenOutcomes, type ContextOutcomes, type Finalized } from "./result-outcomes.js";
import { TestIdResolver } from "../test-ids/test-id-resolver.js";
import { storeTexts } from "./results.repo.js";
import type { KnownTests, TestIdCache } from "../test-ids/test-id-cache.js";

export type { AttachmentSink, QueuedResult };

/** A run its upload wrote whole, as flaky tests take it (ResultsWriter.written). */
export interface WrittenRun {
  outcomes: readonly ContextOutcomes[];
}

/** What the writer needs, plus what write() hands its ResultPreparer. */
export interface WriterOptions extends PreparerOptions {
  runId: number;
  attachments: AttachmentSink;
  knownTests: KnownTests;
  /** test_run_test_ids the run already holds: results with these are duplicates, skipped. */
  existing: Set<string>;
}

export interface WriteSummary {
  inserted: number;
  duplicates: number;
  attachments: number;
  /** Attachment references with no matching uploaded file. */
  missingAttachments: string[];
}

/**
 * Batches waiting for (or in) the database while the next one is parsed. Two keep PostgreSQL
 * busy while parsing runs ahead, and bound the memory an upload holds whatever its size.
 */
const MAX_BATCHES_IN_FLIGHT = 2;

/**
 * Texts (result-texts.ts) are held until they reach this many bytes, then stored: each time the
 * open COPY of results ends, so not every batch (a daily run's rows need no other statement).
 */
const TEXT_BYTES_HELD = 8 * 1024 * 1024;

/**
 * Writes prepared results (result-preparer.ts) to PostgreSQL in batches inside the caller's
 * transaction: stable test ids resolved per batch, results and API requests by COPY, attachments
 * streamed to object storage first. The database works on one batch while the next is prepared,
 * so an upload takes about the longer of the two, not their sum.
 */
export class ResultsWriter {
  /** Whether the run held results before this upload (any test may then have two attempts). */
  private readonly runHadResults: boolean;
  private readonly tests: TestIdResolver;
  private readonly resultIds = new ResultIds();
  private readonly factIds = new FactIds();
  private readonly copy: OpenCopy;
  private aborted = false;
  private prepared: PreparedSummary | undefined;
  private readonly outcomes = new WrittenOutcomes();
  /** COPY rows of texts not stored yet, and their bytes. */
  private texts: Buffer[] = [];
  private textBytes = 0;
  readonly summary: WriteSummary = {
    inserted: 0,
    duplicates: 0,
    attachments: 0,
    missingAttachments: [],
  };

  constructor(
    private readonly client: pg.PoolClient,
    private readonly options: WriterOptions,
  ) {
    this.tests = new TestIdResolver(options.knownTests, options.family);
    this.copy = new OpenCopy(client, `COPY results (${RESULT_COLUMNS.join(", ")}) FROM STDIN`);
    this.runHadResults = options.existing.size > 0;
  }

  /** The counts of what this upload wrote, for finalizeRun (once the writing is done). */
  get tally(): RunTally {
    return this.prepared?.tally ?? new RunTally();
  }

  /** Which results finalizeRun must rank, once the writing is done. */
  ranking(): Ranking {
    if (this.runHadResults) return "all";
    const retried = this.prepared?.retried ?? [];
    // Positions follow the order results were written in, which is the order ids were taken in.
    return retried.length === 0 ? "none" : retried.map((position) => this.resultIds.idAt(position));
  }

  /**
   * The run as flaky tests take it, when this upload holds all of it: it wrote a run that had
   * no results. `finalized`: what finalizeRun changed (the earlier attempts of the tests this
   * upload retried are no outcomes of the run). Otherwise (the run had results) undefined, and
   * flaky reads the run.
   */
  written(finalized: Finalized): WrittenRun | undefined {
    if (this.runHadResults) return undefined;
    return { outcomes: this.outcomes.final(finalized) };
  }

  /** Catalogue entries this upload looked up or made: for KnownTests once it has committed. */
  get learnedTests(): TestIdCache {
    return this.tests.learned;
  }

  /**
   * The tests this upload may have registered: how many (0 when every test was known) and the
   * first NEW_TEST_IDS_KEPT ids.
   */
  get registeredTests(): { count: number; ids: readonly number[] } {
    return { count: this.tests.registered, ids: this.tests.registeredIds };
  }

  /** Prepares (in this thread) and writes every result of `source`. */
  async write(source: AsyncIterable<QueuedResult> | Iterable<QueuedResult>): Promise<void> {
    const preparer = new ResultPreparer(this.options);
    await this.writeBatches(prepareInThread(preparer, source), (batch) => preparer.recycle(batch));
    this.finish(preparer.done());
    preparer.release();
  }

  /**
   * Writes every batch of `batches`; once it returns, every row is stored. When reading the
   * batches or writing fails, batches not yet started are dropped, the one in progress is
   * awaited and the open COPY abandoned before the error is rethrown, so the caller's ROLLBACK is
   * the last thing the connection runs. `recycle` gets each batch once it is written.
   */
  async writeBatches(
    batches: AsyncIterable<PreparedBatch>,
    recycle: (batch: PreparedBatch) => void = () => undefined,
  ): Promise<void> {
    const inFlight: Promise<void>[] = [];
    let chain = Promise.resolve();
    try {
      for await (const batch of batches) {
        chain = chain.then(async () => {
          await this.writeBatch(batch);
          recycle(batch);
        });
        // Awaited below or in the catch; this only keeps a failure from counting as unhandled.
        chain.catch(() => undefined);
        inFlight.push(chain);
        while (inFlight.length > MAX_BATCHES_IN_FLIGHT) await inFlight.shift();
      }
      await chain;
      await this.copy.end();
      await this.storeTexts();
    } catch (error) {
      this.aborted = true;
      await chain.catch(() => undefined);
      await this.copy.abort();
      throw repeatedIdError(error);
    }
  }

  /** Stores the texts held (the open COPY ended first). */
  private async storeTexts(): Promise<void> {
    if (this.texts.length === 0) return;
    const texts = this.texts;
    this.texts = [];
    this.textBytes = 0;
    await storeTexts(this.client, this.options.runAt, texts);
  }

  /** What preparing the written batches found (duplicates, counts, retried tests). */
  finish(prepared: PreparedSummary): void {
    this.prepared = prepared;
    this.summary.duplicates = prepared.duplicates;
  }

  private async writeBatch(batch: PreparedBatch) {
    const { rows, texts, tests, facts, children } = batch;
    if (this.aborted) return;
    // Statements cannot run while the COPY is open: most batches of a daily run need none.
    const cached = this.tests.cachedIds(tests);
    const count = rows.rows;
    if (
      cached.includes(undefined) ||
      this.resultIds.needsQuery(count) ||
      this.factIds.needsQuery(facts)
    ) {
      await this.copy.end();
    }
    const factIds = await this.factIds.resolve(this.client, facts);
    const testIds = await this.tests.resolve(this.client, tests, cached);
    const ids = await this.resultIds.take(this.client, count);
    await this.copy.write(rows.chunks([ids, testIds, factIds]));
    if (texts.rows > 0) {
      // A copy: the batch's buffers go back to the parse worker once it is written.
      const held = texts.copyAll();
      this.texts.push(held);
      this.textBytes += held.length;
      if (this.textBytes >= TEXT_BYTES_HELD) {
        await this.copy.end();
        await this.storeTexts();
      }
    }
    if (!this.runHadResults) this.outcomes.add(batch.outcomes, ids, testIds, facts);
    if (children.length > 0) {
      await this.copy.end();
      const written = await writeResultChildren(
        this.client,
        this.options.runId,
        this.options.attachments,
        children.map(({ index, result, files }) => ({ id: ids[index]!, result, files })),
      );
      this.summary.attachments += written.attachments;
      this.summary.missingAttachments.push(...written.missing);
    }
    this.summary.inserted += count;
  }
}

/**
 * PostgreSQL refused two results of the run with one test_run_test_id. The preparer gives
 * repeats a suffix, except where an explicit id arrives after a test's first result took the
 * same text as its derived id (see ResultPreparer.testRunTestId): a 422 that names it.
 */
function repeatedIdError(error: unknown): unknown {
  const { code, constraint, detail } = error as {
    code?: string;
    constraint?: string;
    detail?: string;
  };
  // The partition's index is named: test_results_pYYYYMM_run_id_test_run_test_id_run_at_key.
  if (code !== "23505" || !constraint?.endsWith("_run_id_test_run_test_id_run_at_key"))
    return error;
  const id = /=\(\d+, (.*), [^,]*\) already exists/.exec(detail ?? "")?.[1] ?? "?";
  return new AppError(
    422,
    "repeated_result_id",
    `Two results have the test_run_test_id "${id}": one states it, and it is also the id Assay derives for another test of this upload. Give the result that states it another test_run_test_id.`,
  );
}
