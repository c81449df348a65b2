import { arrayLiteral } from "../encoding/copy.js";
import { KEY_WORDS, keyWords } from "../encoding/fingerprints.js";
import { Packing } from "../encoding/packing.js";
import { MAX_ID_DIGITS, RowBuffer, writeId, type PackedRows } from "../encoding/row-buffer.js";
import { catalogueKey } from "./test-identity.js";

/** BatchTests as structured-clonable data (`keys` and `text.bytes` can be transferred). */
export interface PackedTests {
  keys: Int32Array<ArrayBuffer>;
  /** NaN where a test has none. */
  explicitIds: Float64Array<ArrayBuffer>;
  text: PackedRows;
}

/**
 * Texts a test keeps in `text`: identity, title, file, name and suite path (its text[] literal):
 * what `tests` stores of it, so that its results need not (migration 0221).
 */
const TEXTS = 5;
const FIRST_CAPACITY = 256;
const COMMA = 0x2c;
const TAB = 0x09;
const NEWLINE = 0x0a;
const CHUNK_BYTES = 64 * 1024;
/** COPY text's NULL. */
const NULL_FIELD = Buffer.from("\\N");

/**
 * The tests of a batch of results, by position: each one's catalogue key as the words a
 * FingerprintTable stores it as, the id its report carries, and its texts (TEXTS) as UTF-8 bytes. The request's thread finds the tests its cache knows by their key words and
 * decodes text only for the others, which it must look up or register. As strings, a batch's
 * tests were about 400 KB on the request's thread, which waited in the writer's queue long
 * enough to be promoted to V8's old generation, batch after batch.
 */
export class BatchTests {
  private constructor(
    private words: Int32Array<ArrayBuffer>,
    /** Each test's explicit id, NaN for none: typed, like the rest, to stay off the JS heap. */
    private explicitIds: Float64Array<ArrayBuffer>,
    private tests: number,
    private readonly text: RowBuffer,
  ) {}

  static empty(): BatchTests {
    return new BatchTests(
      new Int32Array(FIRST_CAPACITY * KEY_WORDS),
      new Float64Array(FIRST_CAPACITY),
      0,
      new RowBuffer(64 * 1024),
    );
  }

  /** Tests posted by another thread (see packed). */
  static unpacked({ keys, explicitIds, text }: PackedTests): BatchTests {
    return new BatchTests(keys, explicitIds, explicitIds.length, RowBuffer.unpacked(text));
  }

  get count(): number {
    return this.tests;
  }

  /** The id the report gives the test at `index`, if any. */
  explicitIdAt(index: number): number | null {
    const id = this.explicitIds[index]!;
    return Number.isNaN(id) ? null : id;
  }

  /** The key words of every test: test i's are keys[i * KEY_WORDS ...]. */
  get keys(): Int32Array {
    return this.words;
  }

  add(
    identity: string,
    explicitId: number | undefined,
    title: string,
    file: string | undefined,
    names: { name: string; suitePath: readonly string[] },
  ) {
    const at = this.count * KEY_WORDS;
    if (this.count === this.explicitIds.length) {
      const words = new Int32Array(this.words.length * 2);
      words.set(this.words);
      this.words = words;
      const explicitIds = new Float64Array(this.explicitIds.length * 2);
      explicitIds.set(this.explicitIds);
      this.explicitIds = explicitIds;
    }
    this.words.set(keyWords(catalogueKey(explicitId, identity)), at);
    this.explicitIds[this.tests++] = explicitId ?? NaN;
    this.text.append(identity);
    this.text.append(title);
    // A file is never empty text: "" stands for none.
    this.text.append(file ?? "");
    this.text.append(names.name);
    this.text.append(arrayLiteral(names.suitePath));
  }

  identityAt(index: number): string {
    return this.text.textAt(index * TEXTS);
  }

  /**
   * The identities of the tests at `positions`, comma-separated, as UTF-8 bytes: written at the
   * start of `into` when it is long enough (a view of it is returned), else into a new buffer.
   */
  joinedIdentities(positions: ArrayLike<number>, into?: Buffer): Buffer {
    let size = Math.max(0, positions.length - 1);
    for (let k = 0; k < positions.length; k++) size += this.text.textBytes(positions[k]! * TEXTS);
    const joined =
      into && into.length >= size ? into.subarray(0, size) : Buffer.allocUnsafeSlow(size);
    let at = 0;
    for (let k = 0; k < positions.length; k++) {
      if (k > 0) joined[at++] = COMMA;
      at = this.text.copyText(positions[k]! * TEXTS, joined, at);
    }
    return joined;
  }

  /**
   * COPY text rows for `tests` (tests.repo.ts CATALOGUE_COLUMNS) of the tests at `positions`,
   * with `ids` in the same order, in chunks of about 64 KB, written from the batch's bytes: no
   * string per test. Made as the COPY takes them. The chunks are the buffers of `pool`, which it
   * adds to as needed: the caller reuses them once the COPY is done (new buffers per batch lived
   * through the COPY, were promoted, and held their memory until a full GC).
   */
  *catalogueRows(
    positions: ArrayLike<number>,
    ids: ArrayLike<number>,
    family: string,
    pool: Buffer[] = [],
  ): Generator<Buffer> {
    let used = 0;
    const take = (size: number) => {
      const spare = pool[used];
      const chunk = spare && spare.length >= size ? spare : Buffer.allocUnsafeSlow(size);
      pool[used++] = chunk;
      return chunk;
    };
    let chunk = take(CHUNK_BYTES);
    let filled = 0;
    for (let k = 0; k < positions.length; k++) {
      const text = positions[k]! * TEXTS;
      let worst = MAX_ID_DIGITS + family.length + 7 + NULL_FIELD.length;
      for (let t = 0; t < TEXTS; t++) worst += 3 * this.text.textBytes(text + t);
      if (filled + worst > chunk.length) {
        if (filled > 0) yield chunk.subarray(0, filled);
        // The next buffer: the connection may still hold the last one.
        chunk = take(Math.max(CHUNK_BYTES, worst));
        filled = 0;
      }
      filled = writeId(chunk, filled, ids[k]!);
      filled += chunk.write(family, filled, "latin1");
      chunk[filled++] = TAB;
      // An identity is a base64url digest: nothing in it to escape.
      filled = this.text.copyText(text, chunk, filled);
      chunk[filled++] = TAB;
      filled = this.text.copyEscapedText(text + 1, chunk, filled);
      chunk[filled++] = TAB;
      filled =
        this.text.textBytes(text + 2) === 0
          ? filled + NULL_FIELD.copy(chunk, filled)
          : this.text.copyEscapedText(text + 2, chunk, filled);
      chunk[filled++] = TAB;
      filled = this.text.copyEscapedText(text + 3, chunk, filled);
      chunk[filled++] = TAB;
      filled = this.text.copyEscapedText(text + 4, chunk, filled);
      chunk[filled++] = NEWLINE;
    }
    if (filled > 0) yield chunk.subarray(0, filled);
  }

  titleAt(index: number): string {
    return this.text.textAt(index * TEXTS + 1);
  }

  fileAt(index: number): string | null {
    return this.text.textAt(index * TEXTS + 2) || null;
  }

  nameAt(index: number): string {
    return this.text.textAt(index * TEXTS + 3);
  }

  /** The suite path as a text[] literal ("{\"a\",\"b\"}"), as COPY and a cast read it. */
  suitePathAt(index: number): string {
    return this.text.textAt(index * TEXTS + 4);
  }

  /** Bytes packed() takes from its Packing. */
  get packedSize(): number {
    return Packing.size(this.count * KEY_WORDS * 4, this.count * 8) + this.text.packedSize;
  }

  /** The tests as plain data to post to another thread: copies, so this object can be reused. */
  packed(into: Packing): PackedTests {
    const keys = into.int32s(this.count * KEY_WORDS);
    keys.set(this.words.subarray(0, keys.length));
    const explicitIds = into.float64s(this.count);
    explicitIds.set(this.explicitIds.subarray(0, this.count));
    return { keys, explicitIds, text: this.text.packed(into) };
  }

  /** Empties it for the next batch, keeping its memory. */
  clear(): void {
    this.tests = 0;
    this.text.clear();
  }
}
