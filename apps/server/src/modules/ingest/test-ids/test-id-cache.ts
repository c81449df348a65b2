import type { BatchTests } from "./batch-tests.js";
import { FingerprintTable, KEY_WORDS } from "../encoding/fingerprints.js";

/**
 * Stable test ids by CatalogueKey, about `maxEntries` of them at most, the oldest leaving first:
 * two FingerprintTables (outside the JavaScript heap, 21-43 bytes an entry), the recent one and the
 * one before it; once the recent one holds half the bound it becomes the older one and the older
 * one is dropped. An explicit id maps to itself, so only its presence is stored. An id past a
 * table's range (2^31, far beyond test_id_seq's start at 1,000,000) is not kept: its test is
 * looked up again when needed.
 */
export class TestIdCache {
  private recent = new FingerprintTable();
  private older = new FingerprintTable();

  constructor(readonly maxEntries: number) {}

  /** Entries held. */
  get size(): number {
    return this.recent.size + this.older.size;
  }

  /** The id of the test at `index` of a batch, found by its key words: no string made. */
  getAt(tests: BatchTests, index: number): number | undefined {
    const at = index * KEY_WORDS;
    const value = this.recent.getWords(tests.keys, at) ?? this.older.getWords(tests.keys, at);
    return value === undefined ? undefined : (tests.explicitIdAt(index) ?? value);
  }

  /** Keeps `id` for the test at `index` of a batch. */
  setAt(tests: BatchTests, index: number, id: number): void {
    const value = tests.explicitIdAt(index) === null ? id : 0;
    if (value <= MAX_CACHED_ID) this.store(tests.keys, index * KEY_WORDS, value);
  }

  /**
   * Adds the entries of `other` (of the same bound), oldest first, and leaves it empty. Once
   * `other` has turned a table over, its two tables hold at least half the bound, all newer than
   * this cache's entries: they become this cache's tables as they are, and this cache's entries
   * go. Copying them instead, at the end of a 300k-test upload, held both caches' tables and the
   * copies' while they grew: the request's thread peaked 20-30 MB higher than during the upload.
   */
  takeAll(other: TestIdCache): void {
    if (other.older.size > 0 && other.maxEntries === this.maxEntries) {
      this.recent.release();
      this.older.release();
      this.recent = other.recent;
      this.older = other.older;
      other.recent = new FingerprintTable();
      other.older = new FingerprintTable();
      return;
    }
    const add = (words: Int32Array, at: number, value: number) => this.store(words, at, value);
    other.older.forEachEntry(add);
    other.recent.forEachEntry(add);
    other.recent.release();
    other.older.release();
  }

  /** Sets the key words[at..at + KEY_WORDS) (see FingerprintTable.setWords). */
  private store(words: Int32Array, at: number, value: number): void {
    if (this.older.getWords(words, at) !== undefined) return this.older.setWords(words, at, value);
    this.recent.setWords(words, at, value);
    if (this.recent.size >= Math.max(1, Math.ceil(this.maxEntries / 2))) {
      this.older.release();
      this.older = this.recent;
      this.recent = new FingerprintTable();
    }
  }
}

const MAX_CACHED_ID = 0x7fffffff;

/**
 * About 200k entries: 2 x 98,304, which is what a FingerprintTable of 2^17 slots (2 MB) holds
 * before it doubles, so each of a TestIdCache's two tables stays at 2 MB. At 100,000 the recent
 * table doubled to 4 MB just before turning over, for 1,696 entries more.
 */
const KNOWN_TESTS_BOUND = 2 * 98_304;

/**
 * The test catalogue entries this server has seen committed: identity -> stable id, and explicit
 * ids known to exist. Catalogue entries never change once committed, so a hit needs no database
 * work; a daily run of known tests resolves all its ids without a query. Only committed entries
 * go in (see TestIdResolver.learned): an id from a rolled-back upload must never be handed out.
 */
export class KnownTests {
  private readonly ids: TestIdCache;

  constructor(readonly maxEntries = KNOWN_TESTS_BOUND) {
    this.ids = new TestIdCache(maxEntries);
  }

  getAt(tests: BatchTests, index: number): number | undefined {
    return this.ids.getAt(tests, index);
  }

  /** Takes what an upload resolved (leaving `learned` empty), once its transaction has committed. */
  remember(learned: TestIdCache): void {
    this.ids.takeAll(learned);
  }
}
