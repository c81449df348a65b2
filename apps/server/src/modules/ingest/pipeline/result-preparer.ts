import type { ResultInput } from "@assay/core";
import { RunTally } from "./run-tally.js";
import { digestOf, FingerprintTable } from "../encoding/fingerprints.js";
import { derivedTestRunTestId, encodeResultTail, type TextRefs } from "./result-rows.js";
import { ResultTexts } from "./result-texts.js";
import { emptyBatchFacts, factValues, UploadFacts } from "./result-facts.js";
import { outcomeOf } from "./result-outcomes.js";
import { RowBuffer } from "../encoding/row-buffer.js";
import { BatchTests } from "../test-ids/batch-tests.js";
import { explicitTestId, identityOf, namesakeIdentity } from "../test-ids/test-identity.js";
import type {
  PreparedBatch,
  PreparedSummary,
  PreparerOptions,
  QueuedResult,
} from "./prepared-batch.js";

const DEFAULT_BATCH_SIZE = 2000;

/** In `testRunTestIds`: the run holds a result with this test_run_test_id, or this upload does. */
const HELD = 1;
/** In `testRunTestIds`: one more result of this upload had it as its own id before a suffix. */
const SEEN = 2;
/** In `testsInUpload`: the test's first result is in `retried` already. */
const RETRIED = 1;
/** In `testsInUpload`: the first result's id is derived (attempt 0) and not in testRunTestIds. */
const UNLISTED = 2;
/** In `testsInUpload`: the position of the test's first result is the value over this. */
const FIRST = 4;

/**
 * Turns parsed results into batches of COPY rows, JavaScript only: identities, run-wide ids,
 * duplicates skipped, counts tallied, rows encoded. Done as each result is parsed, so that its
 * objects die young (cheap for the GC). Runs where the parsing runs: in the upload's parse worker
 * (parse-worker.ts), or in the request's thread for the live API.
 */
export class ResultPreparer {
  /**
   * By test_run_test_id: whether a result holds it (HELD), and how many of this upload's results
   * had it as their own before a suffix (SEEN each). Kept for the whole upload as fingerprints
   * (see FingerprintTable), so that the worker's memory does not grow by a string a result.
   */
  private readonly testRunTestIds = new FingerprintTable();
  /** Identity -> the position of its test's first result here (times FIRST), + flags. */
  private readonly testsInUpload = new FingerprintTable();
  /**
   * Identity (file, suite path, name) -> how many distinct tests of this upload had it, once
   * there are two (see namesakeOf), or 1 for a name whose first result was a duplicate.
   */
  private readonly namesakes = new FingerprintTable();
  /** Identity and a parser's testKey -> which of the identity's namesakes has that key (1, 2...). */
  private readonly testKeys = new FingerprintTable();
  /**
   * Whether testRunTestIds holds no id the run had and no explicit one: then the id derived for
   * attempt 0 of a test not seen before cannot be in it (see testRunTestId).
   */
  private onlyDerivedIds: boolean;
  private readonly retried: number[] = [];
  /** Results added so far, not counting duplicates: the position of the next one. */
  private written = 0;
  /** Written batches' buffers, for later batches to reuse. */
  private readonly spares: Pick<PreparedBatch, "rows" | "texts" | "tests">[] = [];
  private batch: PreparedBatch;
  private duplicates = 0;
  private readonly tally = new RunTally();
  private readonly texts = new ResultTexts();
  private readonly facts = new UploadFacts();
  /** The texts' keys for the rows of the batch being filled. */
  private readonly refs: TextRefs = { ref: (text) => this.texts.ref(text, this.batch.texts) };

  constructor(private readonly options: PreparerOptions) {
    for (const id of options.existing) this.testRunTestIds.set(digestOf(id), HELD);
    this.onlyDerivedIds = this.testRunTestIds.size === 0;
    this.batch = this.newBatch();
  }

  /** Adds a result; returns the batch it completed, if any. */
  add({ result, files }: QueuedResult): PreparedBatch | undefined {
    const { family, testIdPattern } = this.options;
    const named = identityOf(family, result.file, result.suite_path ?? [], result.name);
    let identity = named;
    let first = this.testsInUpload.get(identity);
    // A name seen before (kept, or only a duplicate: see below), so this may be a namesake.
    const seen =
      first !== undefined || (this.duplicates > 0 && this.namesakes.get(named) !== undefined);
    const testKey = "testKey" in result ? result.testKey : undefined;
    if (seen) {
      identity = this.namesakeOf(named, result.attempt ?? 0, testKey);
      if (identity !== named) first = this.testsInUpload.get(identity);
    } else if (testKey !== undefined) {
      this.testKeys.set(digestOf(`${named}\u0000${testKey}`), 1);
    }
    const derivedFirst =
      first === undefined &&
      this.onlyDerivedIds &&
      result.test_run_test_id === undefined &&
      (result.attempt ?? 0) === 0;
    if (first !== undefined && first & UNLISTED) {
      first = this.listFirstId(identity, first);
    }
    const testRunTestId = derivedFirst
      ? derivedTestRunTestId(identity, 0)
      : this.testRunTestId(result, identity);
    if (testRunTestId === undefined) {
      // testsInUpload learns only kept results: the name is noted here, for its namesakes.
      if (!seen) this.namesakes.set(named, 1);
      this.duplicates++;
      return undefined;
    }
    this.tally.add(result);
    // An id the result states outright wins over one read from its tags or title.
    const explicitId =
      result.test_id ??
      explicitTestId(
        { tags: result.tags ?? [], texts: [result.title, result.name] },
        testIdPattern,
      );
    // Attempts of one test share its identity (their stable ids may differ: tags per attempt).
    const position = this.written++;
    if (first === undefined) {
      this.testsInUpload.set(identity, position * FIRST + (derivedFirst ? UNLISTED : 0));
    } else {
      if ((first & RETRIED) === 0) {
        this.retried.push(Math.floor(first / FIRST));
        this.testsInUpload.set(identity, first | RETRIED);
      }
      this.retried.push(position);
    }
    const batch = this.batch;
    if (result.attachments?.length || result.api_requests?.length) {
      batch.children.push({ index: batch.rows.rows, result, files });
    }
    batch.tests.add(identity, explicitId, result.title ?? result.name, result.file, {
      name: result.name,
      suitePath: result.suite_path ?? [],
    });
    // A test known by its identity has this result's suite path, file and name (the identity is
    // made of them), which its row in `tests` holds; one with an explicit id has its first
    // result's, which may differ. A file "" is stored as none in `tests`, so it stays here.
    const testsNames = explicitId === undefined && result.file !== "";
    const place = {
      runId: this.options.runId,
      runAt: this.options.runAt,
      testRunTestId,
      testsNames,
    };
    batch.rows.append(encodeResultTail(place, result, this.refs));
    batch.outcomes += outcomeOf(result);
    this.facts.add(factValues(result, this.options.runFacts ?? {}), batch.facts);
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

  /** A batch that was written or posted: its buffers, for a later batch to reuse. */
  recycle({ rows, texts, tests }: PreparedBatch): void {
    rows.clear();
    texts.clear();
    tests.clear();
    this.spares.push({ rows, texts, tests });
  }

  /** Complete once every result has been added. */
  done(): PreparedSummary {
    return { duplicates: this.duplicates, tally: this.tally, retried: this.retried };
  }

  /** Gives back the memory of what the upload saw, once no result follows (see done()). */
  release(): void {
    this.testRunTestIds.release();
    this.testsInUpload.release();
    this.namesakes.release();
    this.testKeys.release();
    this.texts.release();
  }

  /**
   * The identity of a result whose file, suite path and name (`identity`) an earlier result of
   * this upload had. Where the parser gives a testKey (what its format says ties attempts
   * together: Allure's historyId; a Mocha entry's own position), results with one key are one
   * test and another key is another test, whatever their attempt numbers and order. Otherwise a
   * first attempt (0) is a distinct test: the report listed two tests of one name, and each is
   * counted (the n-th takes namesakeIdentity(identity, n)). A later attempt belongs to the last
   * of them: parsers number attempts only where the format says an entry is a retry, and these
   * formats list a test's attempts together (Playwright's results, CTRF's retries, Surefire's
   * reruns, same-named JUnit test cases when the upload asks for it).
   */
  private namesakeOf(identity: string, attempt: number, testKey: string | undefined): string {
    // Tests seen with this name: testsInUpload's entry stands for 1 until there is a second.
    let tests = this.namesakes.get(identity) ?? 1;
    if (testKey !== undefined) {
      const key = digestOf(`${identity}\u0000${testKey}`);
      const known = this.testKeys.get(key);
      if (known !== undefined) {
        tests = known;
      } else {
        this.namesakes.set(identity, ++tests);
        this.testKeys.set(key, tests);
      }
    } else if (attempt === 0) {
      this.namesakes.set(identity, ++tests);
    }
    return tests === 1 ? identity : namesakeIdentity(identity, tests);
  }

  private newBatch(): PreparedBatch {
    const { rows, texts, tests } = this.spares.pop() ?? {
      rows: new RowBuffer(),
      texts: new RowBuffer(256 * 1024),
      tests: BatchTests.empty(),
    };
    const facts = emptyBatchFacts();
    return { rows, texts, tests, facts, children: [], outcomes: "" };
  }

  /**
   * A test seen again whose first result took its derived id without listing it (see
   * testRunTestId): lists it now, as testRunTestId would have. Returns the test's new entry.
   */
  private listFirstId(identity: string, first: number): number {
    this.testRunTestIds.set(digestOf(derivedTestRunTestId(identity, 0)), SEEN | HELD);
    const listed = first & ~UNLISTED;
    this.testsInUpload.set(identity, listed);
    return listed;
  }

  /**
   * An explicit id, or one derived from the test's identity; repeats within one upload get a
   * suffix. Undefined when a result of the run or of this upload holds it already (a duplicate).
   *
   * A test's first result whose id is derived (attempt 0) skips this while testRunTestIds holds
   * only derived ids (no id the run had, no explicit one): no earlier result can hold an id
   * derived from an identity not seen before. Its id is listed when the test is seen again
   * (listFirstId). That spares a digest and an entry per result: for a JUnit file, nearly all.
   * An explicit id that arrives later and equals such an id (16 characters of a SHA-256 digest)
   * is not caught here; the results table's unique index refuses the upload then.
   */
  private testRunTestId(result: ResultInput, identity: string): string | undefined {
    const ids = this.testRunTestIds;
    if (result.test_run_test_id !== undefined) this.onlyDerivedIds = false;
    const base = result.test_run_test_id ?? derivedTestRunTestId(identity, result.attempt ?? 0);
    const baseDigest = digestOf(base);
    const entry = ids.get(baseDigest) ?? 0;
    ids.set(baseDigest, entry + SEEN);
    const seen = entry >> 1;
    const id = seen === 0 ? base : `${base}~${seen + 1}`;
    const digest = seen === 0 ? baseDigest : digestOf(id);
    const flags = seen === 0 ? entry + SEEN : (ids.get(digest) ?? 0);
    if (flags & HELD) return undefined;
    ids.set(digest, flags | HELD);
    return id;
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
