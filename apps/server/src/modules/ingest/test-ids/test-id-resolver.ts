import type pg from "pg";
import type { BatchTests } from "./batch-tests.js";
import { copyData } from "../encoding/copy.js";
import { FingerprintTable, KEY_WORDS } from "../encoding/fingerprints.js";
import { TestIdCache, type Family, type KnownTests } from "./test-id-cache.js";

/**
 * The catalogue's ids of a batch's identities ($2: one comma-separated text; base64url has no
 * comma). It goes as a binary parameter, whose text form is the bytes themselves, copied from
 * the batch's: as a text[] parameter, node-postgres quoted and escaped each identity into a new
 * string.
 *
 * = ANY, not IN (SELECT ...), which let the planner scan the whole table once it was large. The
 * array must be a constant of the plan (string_to_array is immutable; convert_from, used before,
 * is only stable), because PostgreSQL hashes a constant array. It matters on a table without
 * statistics, as in a first upload: the planner takes `family` as selective, reads all of the
 * family's rows and filters them by the array. Unhashed, that was a scan of the array per row,
 * and a first upload of 100k new tests took 210 s instead of 3 (docs/performance.md).
 */
export const TEST_LOOKUP_SQL = `SELECT identity, id FROM tests
  WHERE family = $1 AND identity = ANY(string_to_array($2::text, ','))`;

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
    await client.query(
      `INSERT INTO tests (id, family, title, file)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[])
       ON CONFLICT (id) DO NOTHING`,
      [
        ids,
        positions.map(() => this.family),
        positions.map((i) => tests.titleAt(i)),
        positions.map((i) => tests.fileAt(i)),
      ],
    );
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
      await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [
        `assay.test-registration:${this.family}`,
      ]);
      this.holdsRegistrationLock = true;
      missing = await this.lookUp(client, tests, missing, firsts, found);
      if (missing.length === 0) return;
    }
    const ids = await freeTestIds(client, missing.length);
    await copyData(
      client,
      "tests",
      ["id", "family", "identity", "title", "file"],
      tests.catalogueRows(missing, ids, this.family, this.catalogueChunks),
    );
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
    const { rows } = await client.query<{ identity: string; id: string }>(TEST_LOOKUP_SQL, [
      this.family,
      identities,
    ]);
    for (const row of rows) {
      this.learn(found, tests, firsts.get(row.identity)!, Number(row.id));
    }
    return positions.filter((position) => Number.isNaN(found[position]));
  }
}

/**
 * `count` ids from test_id_seq that no test has. A report may give any id (TC1396065), and the
 * sequence reaches it one day: that id is stepped over instead of the COPY of new tests failing
 * on tests_pkey. One statement unless an id was taken.
 */
async function freeTestIds(client: pg.PoolClient, count: number): Promise<Float64Array> {
  const ids = new Float64Array(count);
  for (let filled = 0; filled < count;) {
    // The subquery is not flattened (a volatile target list): one nextval per generated row.
    const { rows } = await client.query<{ ids: string | null; n: number }>(
      `SELECT array_agg(s.id)::text AS ids, count(s.id)::int AS n
       FROM (SELECT nextval('test_id_seq') AS id FROM generate_series(1, $1)) s
       WHERE NOT EXISTS (SELECT FROM tests t WHERE t.id = s.id)`,
      [count - filled],
    );
    const { ids: text, n } = rows[0]!;
    if (text !== null) ids.set(integersOf(text, n), filled);
    filled += n;
  }
  return ids;
}

/**
 * The integers of an array read back as text ("{1000001,1000002,...}"), `count` of them, parsed
 * as they are: split() and map() made two arrays per batch that lived through its COPY and were
 * promoted to V8's old generation.
 */
function integersOf(text: string, count: number): Float64Array {
  const values = new Float64Array(count);
  let k = 0;
  let value = 0;
  for (let i = 1; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x30 && code <= 0x39) {
      value = value * 10 + (code - 0x30);
    } else {
      values[k++] = value;
      value = 0;
    }
  }
  if (k !== count) throw new Error(`expected ${count} ids from test_id_seq, read ${k}`);
  return values;
}
