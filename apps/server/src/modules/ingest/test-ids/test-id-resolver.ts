import type pg from "pg";
import type { BatchTests } from "./batch-tests.js";
import { FingerprintTable, KEY_WORDS } from "../encoding/fingerprints.js";
import { TestIdCache, type KnownTests } from "./test-id-cache.js";
import type { Family } from "./test-identity.js";
import * as repo from "./tests.repo.js";

/** How many ids of the tests an upload registered are kept; beyond it, only their count. */
export const NEW_TEST_IDS_KEPT = 5_000;

/**
 * Resolves the stable test id of each result of one upload: explicit ids are registered in
 * `tests` as they are; the others are looked up by identity in `tests` and assigned from
 * test_id_seq when new. Cache hits cost nothing; the misses of a batch take a lookup, and new
 * tests an id allocation and a COPY. Runs inside the upload's transaction, so an upload that
 * fails assigns nothing.
 *
 * A batch's tests are handled by position and key words (BatchTests): the only strings made are
 * the rows of new tests, one at a time as the COPY takes them. Strings held across the lookup's
 * and the COPY's round trips were promoted to V8's old generation, about 17 MB for 100k new tests.
 */
export class TestIdResolver {
  /**
   * What this upload looked up or registered; KnownTests takes it after COMMIT. Holds at most as
   * many entries as KnownTests, the oldest leaving first, so that the request's memory does not
   * grow with the size of the report: a test that left is looked up again (this transaction sees
   * what it registered).
   */
  readonly learned: TestIdCache;
  /** Tests this upload may have registered (explicit ids count even when already there). */
  registered = 0;
  /** Their ids, the first NEW_TEST_IDS_KEPT of them (for onRunStored's readers: aliases). */
  readonly registeredIds: number[] = [];
  private holdsRegistrationLock = false;
  /**
   * The last lookup's identities, reused by the next: a new buffer per batch lived through the
   * lookup's round trip, was promoted, and kept its 90 KB outside the heap until a full GC.
   */
  private lookupBytes: Buffer = Buffer.alloc(0);
  /** Chunks of the last COPY of new tests, reused by the next (see BatchTests.catalogueRows). */
  private readonly catalogueChunks: Buffer[] = [];

  constructor(
    private readonly known: KnownTests,
    private readonly family: Family,
  ) {
    this.learned = new TestIdCache(known.maxEntries);
  }

  /**
   * The stable ids of `tests` that need no database work (known, or registered by this upload),
   * undefined for the others: one cache lookup per test (resolve() fills in the rest).
   */
  cachedIds(tests: BatchTests): (number | undefined)[] {
    const ids = new Array<number | undefined>(tests.count);
    for (let i = 0; i < ids.length; i++) {
      ids[i] = this.learned.getAt(tests, i) ?? this.known.getAt(tests, i);
    }
    return ids;
  }

  /** Fills in the ids cachedIds() left undefined: one statement per kind of test missing. */
  async resolve(
    client: pg.PoolClient,
    tests: BatchTests,
    ids: (number | undefined)[],
  ): Promise<number[]> {
    // Each test missing from the cache by the position of its first result here (attempts of
    // one test share its key), and what is found for it by that position.
    if (!ids.includes(undefined)) return ids as number[];
    const firsts = new FingerprintTable();
    try {
      const explicit: number[] = [];
      const implicit: number[] = [];
      ids.forEach((id, i) => {
        if (id !== undefined || firsts.getWords(tests.keys, i * KEY_WORDS) !== undefined) return;
        firsts.setWords(tests.keys, i * KEY_WORDS, i);
        (tests.explicitIdAt(i) === null ? implicit : explicit).push(i);
      });
      // By position; NaN until found. A typed array: a Map per batch lived through the round
      // trips and was promoted to the old generation.
      const found = new Float64Array(tests.count).fill(NaN);
      if (explicit.length > 0) await this.registerExplicit(client, tests, explicit, found);
      if (implicit.length > 0) {
        await this.registerImplicit(client, tests, Int32Array.from(implicit), firsts, found);
      }
      return ids.map((id, i) => id ?? found[firsts.getWords(tests.keys, i * KEY_WORDS)!]!);
    } finally {
      // 64 KB a batch of 2,000 new tests, otherwise held until V8's next full collection.
      firsts.release();
    }
  }

  private noteRegistered(ids: ArrayLike<number>) {
    this.registered += ids.length;
    for (let i = 0; i < ids.length && this.registeredIds.length < NEW_TEST_IDS_KEPT; i++) {
      this.registeredIds.push(ids[i]!);
    }
  }

  /** Records the id of the test at `position` for this batch (`found`) and for KnownTests. */
  private learn(found: Float64Array, tests: BatchTests, position: number, id: number) {
    found[position] = id;
    this.learned.setAt(tests, position, id);
  }

  /** Registers the explicit ids of the tests at `positions`. */
  private async registerExplicit(
    client: pg.PoolClient,
    tests: BatchTests,
    positions: readonly number[],
    found: Float64Array,
  ) {
    const ids = positions.map((i) => tests.explicitIdAt(i)!);
    await repo.insertExplicitTests(client, {
      ids,
      family: this.family,
      titles: positions.map((i) => tests.titleAt(i)),
      files: positions.map((i) => tests.fileAt(i)),
      ...namesAt(tests, positions),
    });
    this.noteRegistered(ids);
    positions.forEach((position, k) => this.learn(found, tests, position, ids[k]!));
  }

  /**
   * Looks the identities up, then registers the missing ones with ids from test_id_seq. New
   * tests are written with COPY: for 100k of them the database time fell by about a third against
   * INSERT ... ON CONFLICT (docs/performance.md). COPY cannot step over a row that another upload
   * registered meanwhile, so an upload about to register tests of a family first takes that
   * family's registration lock, held until its transaction ends: a second one waits for the
   * first's COMMIT, then finds what the first registered. Uploads of known tests never take it.
   */
  private async registerImplicit(
    client: pg.PoolClient,
    tests: BatchTests,
    positions: Int32Array,
    firsts: FingerprintTable,
    found: Float64Array,
  ) {
    let missing = await this.lookUp(client, tests, positions, firsts, found);
    if (missing.length === 0) return;
    if (!this.holdsRegistrationLock) {
      // Its own statement, so that the next one's snapshot holds what the last holder committed.
      await repo.lockRegistration(client, this.family);
      this.holdsRegistrationLock = true;
      missing = await this.lookUp(client, tests, missing, firsts, found);
      if (missing.length === 0) return;
    }
    const ids = await repo.freeTestIds(client, missing.length);
    await repo.copyNewTests(
      client,
      tests.catalogueRows(missing, ids, this.family, this.catalogueChunks),
    );
    this.noteRegistered(ids);
    missing.forEach((position, k) => this.learn(found, tests, position, ids[k]!));
  }

  /** Learns the ids of the tests at `positions` the catalogue holds; returns the others. */
  private async lookUp(
    client: pg.PoolClient,
    tests: BatchTests,
    positions: Int32Array,
    firsts: FingerprintTable,
    found: Float64Array,
  ): Promise<Int32Array> {
    const identities = tests.joinedIdentities(positions, this.lookupBytes);
    if (identities.buffer !== this.lookupBytes.buffer) this.lookupBytes = identities;
    const rows = await repo.lookUpIdentities(client, this.family, identities);
    const unnamed: number[] = [];
    for (const row of rows) {
      const position = firsts.get(row.identity)!;
      this.learn(found, tests, position, Number(row.id));
      if (row.unnamed) unnamed.push(position);
    }
    if (unnamed.length > 0) {
      const ids = unnamed.map((position) => found[position]!);
      await repo.nameTests(client, { ids, ...namesAt(tests, unnamed) });
    }
    return positions.filter((position) => Number.isNaN(found[position]));
  }
}

/** The names and suite paths (text[] literals) of the tests at `positions`. */
function namesAt(tests: BatchTests, positions: readonly number[]) {
  return {
    names: positions.map((i) => tests.nameAt(i)),
    suitePaths: positions.map((i) => tests.suitePathAt(i)),
  };
}
