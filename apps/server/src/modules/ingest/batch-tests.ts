import { KEY_WORDS, keyWords } from "./fingerprints.js";
import { Packing } from "./packing.js";
import { RowBuffer, type PackedRows } from "./row-buffer.js";
import { catalogueKey } from "./test-ids.js";

/** BatchTests as structured-clonable data (`keys` and `text.bytes` can be transferred). */
export interface PackedTests {
  keys: Int32Array<ArrayBuffer>;
  explicitIds: (number | null)[];
  text: PackedRows;
}

/** Texts a test keeps in `text`: identity, title, file. */
const TEXTS = 3;
const FIRST_CAPACITY = 256;
const COMMA = 0x2c;

/**
 * The tests of a batch of results, by position: each one's catalogue key as the words a
 * FingerprintTable stores it as, the id its report carries, and its identity, title and file as
 * UTF-8 bytes. The request's thread finds the tests its cache knows by their key words and
 * decodes text only for the others, which it must look up or register. As strings, a batch's
 * tests were about 400 KB on the request's thread, which waited in the writer's queue long
 * enough to be promoted to V8's old generation, batch after batch.
 */
export class BatchTests {
  private constructor(
    private words: Int32Array<ArrayBuffer>,
    readonly explicitIds: (number | null)[],
    private readonly text: RowBuffer,
  ) {}

  static empty(): BatchTests {
    return new BatchTests(new Int32Array(FIRST_CAPACITY * KEY_WORDS), [], new RowBuffer(64 * 1024));
  }

  /** Tests posted by another thread (see packed). */
  static unpacked({ keys, explicitIds, text }: PackedTests): BatchTests {
    return new BatchTests(keys, explicitIds, RowBuffer.unpacked(text));
  }

  get count(): number {
    return this.explicitIds.length;
  }

  /** The key words of every test: test i's are keys[i * KEY_WORDS ...]. */
  get keys(): Int32Array {
    return this.words;
  }

  add(identity: string, explicitId: number | undefined, title: string, file: string | undefined) {
    const at = this.count * KEY_WORDS;
    if (at + KEY_WORDS > this.words.length) {
      const grown = new Int32Array(this.words.length * 2);
      grown.set(this.words);
      this.words = grown;
    }
    this.words.set(keyWords(catalogueKey(explicitId, identity)), at);
    this.explicitIds.push(explicitId ?? null);
    this.text.append(identity);
    this.text.append(title);
    // A file is never empty text: "" stands for none.
    this.text.append(file ?? "");
  }

  identityAt(index: number): string {
    return this.text.textAt(index * TEXTS);
  }

  /** The identities of the tests at `positions`, comma-separated, as UTF-8 bytes. */
  joinedIdentities(positions: readonly number[]): Buffer {
    let size = Math.max(0, positions.length - 1);
    for (const position of positions) size += this.text.textBytes(position * TEXTS);
    const joined = Buffer.allocUnsafe(size);
    let at = 0;
    positions.forEach((position, k) => {
      if (k > 0) joined[at++] = COMMA;
      at = this.text.copyText(position * TEXTS, joined, at);
    });
    return joined;
  }

  titleAt(index: number): string {
    return this.text.textAt(index * TEXTS + 1);
  }

  fileAt(index: number): string | null {
    return this.text.textAt(index * TEXTS + 2) || null;
  }

  /** Bytes packed() takes from its Packing. */
  get packedSize(): number {
    return Packing.size(this.count * KEY_WORDS * 4, this.text.byteLength);
  }

  /** The tests as plain data to post to another thread: copies, so this object can be reused. */
  packed(into: Packing): PackedTests {
    const keys = into.int32s(this.count * KEY_WORDS);
    keys.set(this.words.subarray(0, keys.length));
    return { keys, explicitIds: this.explicitIds.slice(), text: this.text.packed(into) };
  }

  /** Empties it for the next batch, keeping its memory. */
  clear(): void {
    this.explicitIds.length = 0;
    this.text.clear();
  }
}
