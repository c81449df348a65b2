import { hash } from "node:crypto";
import type pg from "pg";

import type { Family } from "@assay/core";
import type { BatchTests } from "./batch-tests.js";
import { copyRows } from "./copy.js";
import { FingerprintTable, KEY_WORDS, keyWords } from "./fingerprints.js";

export type { Family };

/** Reads a test's stable id from its tags (pattern or bare number), then its title and name. */
export function explicitTestId(
  candidates: { tags: readonly string[]; texts: readonly (string | undefined)[] },
  pattern: RegExp,
): number | undefined {
  for (const tag of candidates.tags) {
    const bare = /^@?(\d{1,15})$/.exec(tag.trim());
    const match = bare ?? pattern.exec(tag);
    if (match?.[1]) return Number(match[1]);
  }
  for (const text of candidates.texts) {
    const match = text ? pattern.exec(text) : null;
    if (match?.[1]) return Number(match[1]);
  }
  return undefined;
}

export function identityOf(
  family: Family,
  file: string | undefined,
  suitePath: readonly string[],
  name: string,
): string {
  // crypto.hash: one call per result, cheaper than a Hash object each time.
  return hash("sha256", [family, file ?? "", ...suitePath, name].join("\u0000"), "base64url");
}

/**
 * A test's key in KnownTests: its explicit id (a number), else its identity (a string, which
 * hashes the family in). Used as they come, so a lookup builds no string.
 */
export type CatalogueKey = number | string;

export const catalogueKey = (explicitId: number | undefined, identity: string): CatalogueKey =>
  explicitId ?? identity;

/**
 * Stable test ids by CatalogueKey, about `maxEntries` of them at most, the oldest leaving first:
 * two FingerprintTables (outside the JavaScript heap, 27-53 bytes an entry), the recent one and the
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

  get(key: CatalogueKey): number | undefined {
    const value = this.recent.get(key) ?? this.older.get(key);
    return value === undefined || typeof key === "string" ? value : key;
  }

  /** get() for the test at `index` of a batch, by its key words: no string made. */
  getAt(tests: BatchTests, index: number): number | undefined {
    const at = index * KEY_WORDS;
    const value = this.recent.getWords(tests.keys, at) ?? this.older.getWords(tests.keys, at);
    return value === undefined ? undefined : (tests.explicitIds[index] ?? value);
  }

  set(key: CatalogueKey, id: number): void {
    const value = typeof key === "string" ? id : 0;
    if (value <= MAX_CACHED_ID) this.store(keyWords(key), 0, value);
  }

  /** Adds every entry of `other`, oldest first. */
  addAll(other: TestIdCache): void {
    const add = (words: Int32Array, at: number, value: number) => this.store(words, at, value);
    other.older.forEachEntry(add);
    other.recent.forEachEntry(add);
  }

  /** Sets the key words[at..at + 4) (see FingerprintTable.setWords). */
  private store(words: Int32Array, at: number, value: number): void {
    if (this.older.getWords(words, at) !== undefined) return this.older.setWords(words, at, value);
    this.recent.setWords(words, at, value);
    if (this.recent.size >= Math.max(1, Math.ceil(this.maxEntries / 2))) {
      this.older = this.recent;
      this.recent = new FingerprintTable();
    }
  }
}

const MAX_CACHED_ID = 0x7fffffff;

/**
 * The test catalogue entries this server has seen committed: identity -> stable id, and explicit
 * ids known to exist. Catalogue entries never change once committed, so a hit needs no database
 * work; a daily run of known tests resolves all its ids without a query. Only committed entries
 * go in (see TestIdResolver.learned): an id from a rolled-back upload must never be handed out.
 */
export class KnownTests {
  private readonly ids: TestIdCache;

  constructor(readonly maxEntries = 200_000) {
    this.ids = new TestIdCache(maxEntries);
  }

  get(key: CatalogueKey): number | undefined {
    return this.ids.get(key);
  }

  getAt(tests: BatchTests, index: number): number | undefined {
    return this.ids.getAt(tests, index);
  }

  /** Adds what an upload resolved, once its transaction has committed. */
  remember(learned: TestIdCache): void {
    this.ids.addAll(learned);
  }
}

/**
 * Resolves the stable test id of each result of one upload: explicit ids are registered in
 * `tests` as they are; the others are looked up by identity in `tests` and assigned from
 * test_id_seq when new. Cache hits cost nothing; the misses of a batch take a lookup, and new
 * tests an id allocation and a COPY. Runs inside the upload's transaction, so an upload that
 * fails assigns nothing.
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
    // The first position of each test missing from the cache, by kind; positions, not an object
    // per test, as a batch of new tests has thousands. Text is decoded for these tests only.
    const explicit = new Map<number, number>();
    const implicit = new Map<string, number>();
    const keys = new Map<number, CatalogueKey>();
    ids.forEach((id, i) => {
      if (id !== undefined) return;
      const explicitId = tests.explicitIds[i];
      if (explicitId !== null && explicitId !== undefined) {
        if (!explicit.has(explicitId)) explicit.set(explicitId, i);
        keys.set(i, explicitId);
      } else {
        const identity = tests.identityAt(i);
        if (!implicit.has(identity)) implicit.set(identity, i);
        keys.set(i, identity);
      }
    });
    if (keys.size === 0) return ids as number[];
    // This batch's ids, kept apart from `learned`, which may already have let some go.
    const found = new Map<CatalogueKey, number>();
    if (explicit.size > 0) {
      await this.registerExplicit(client, tests, [...explicit.values()], found);
    }
    if (implicit.size > 0) await this.registerImplicit(client, tests, implicit, found);
    return ids.map((id, i) => id ?? found.get(keys.get(i)!)!);
  }

  /** Records a test's id for this batch (`found`) and for KnownTests after COMMIT. */
  private learn(found: Map<CatalogueKey, number>, key: CatalogueKey, id: number): void {
    found.set(key, id);
    this.learned.set(key, id);
  }

  /** Registers the explicit ids of the tests at `positions` of the batch. */
  private async registerExplicit(
    client: pg.PoolClient,
    tests: BatchTests,
    positions: readonly number[],
    found: Map<CatalogueKey, number>,
  ) {
    const ids = positions.map((i) => tests.explicitIds[i]!);
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
    for (const id of ids) this.learn(found, id, id);
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
    positions: ReadonlyMap<string, number>,
    found: Map<CatalogueKey, number>,
  ) {
    let missing = await this.lookUp(client, [...positions.keys()], found);
    if (missing.length === 0) return;
    if (!this.holdsRegistrationLock) {
      // Its own statement, so that the next one's snapshot holds what the last holder committed.
      await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [
        `assay.test-registration:${this.family}`,
      ]);
      this.holdsRegistrationLock = true;
      missing = await this.lookUp(client, missing, found);
      if (missing.length === 0) return;
    }
    const { rows } = await client.query<{ ids: string }>(
      "SELECT array_agg(nextval('test_id_seq'))::text AS ids FROM generate_series(1, $1)",
      [missing.length],
    );
    // An array of integers reads back as "{1000001,1000002,...}".
    const ids = rows[0]!.ids.slice(1, -1).split(",").map(Number);
    await copyRows(
      client,
      "tests",
      ["id", "family", "identity", "title", "file"],
      // Made as the COPY takes them, so that they die young: built all at once, they lived
      // through the COPY and were promoted to the old generation, 20 MB for 100k new tests.
      (function* (family) {
        for (const [k, identity] of missing.entries()) {
          const at = positions.get(identity)!;
          yield [ids[k]!, family, identity, tests.titleAt(at), tests.fileAt(at)];
        }
      })(this.family),
    );
    missing.forEach((identity, k) => this.learn(found, identity, ids[k]!));
  }

  /** Learns the ids of the `identities` the catalogue holds; returns the others. */
  private async lookUp(
    client: pg.PoolClient,
    identities: readonly string[],
    found: Map<CatalogueKey, number>,
  ): Promise<string[]> {
    const { rows } = await client.query<{ identity: string; id: string }>(
      // = ANY: one probe of tests_identity_key per identity (IN (SELECT ...) let the planner
      // scan the whole table once it was large). The identities go as one comma-separated text
      // (base64url has no comma): as a text[] parameter, node-postgres quoted and escaped each
      // one into a new string, about 60 MB of garbage on the request's thread for 100k tests.
      "SELECT identity, id FROM tests WHERE family = $1 AND identity = ANY(string_to_array($2, ','))",
      [this.family, identities.join(",")],
    );
    for (const row of rows) this.learn(found, row.identity, Number(row.id));
    return identities.filter((identity) => !found.has(identity));
  }
}
