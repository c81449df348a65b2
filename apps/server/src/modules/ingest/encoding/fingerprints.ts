import { hash } from "node:crypto";

/** The characters of a digest read as its key: 15 base64url characters, 90 bits. */
const KEY_CHARS = 15;
/** Words (32-bit) a key takes in a table: 3 x 30 bits. */
export const KEY_WORDS = 3;
const WORDS = KEY_WORDS;
const CHARS_PER_WORD = KEY_CHARS / WORDS;
/** Set in a slot's first word when it holds a key: a key word itself has at most 30 bits. */
const OCCUPIED = 1 << 30;
const FIRST_SLOTS = 1024;
/** The last word of a number's key: a digest has it with a chance of 2^-30. */
const NUMBER_MARK = (1 << 30) - 1;

/** base64url character code -> its 6-bit value. */
const SEXTETS = new Uint8Array(128);
"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
  .split("")
  .forEach((char, value) => (SEXTETS[char.charCodeAt(0)] = value));

/** The SHA-256 of `text`, as base64url: what a FingerprintTable takes as a key. */
export const digestOf = (text: string): string => hash("sha256", text, "base64url");

/** A SHA-256 digest (base64url, at least its first 15 characters), or a safe integer >= 0. */
export type FingerprintKey = string | number;

const scratch = new Int32Array(WORDS);

/**
 * A key as the three words a table stores (the first with OCCUPIED set), for getWords and
 * setWords: a view of one scratch array, valid until the next call.
 */
export function keyWords(key: FingerprintKey): Int32Array {
  if (typeof key === "number") {
    if (!(Number.isSafeInteger(key) && key >= 0)) throw new Error(`not a key: ${key}`);
    scratch[0] = OCCUPIED | Math.floor(key / OCCUPIED);
    scratch[1] = key % OCCUPIED;
    scratch[2] = NUMBER_MARK;
    return scratch;
  }
  if (key.length < KEY_CHARS) throw new Error(`not a digest: ${JSON.stringify(key)}`);
  for (let w = 0, c = 0; w < WORDS; w++) {
    let word = 0;
    for (const end = c + CHARS_PER_WORD; c < end; c++) {
      word = (word << 6) | SEXTETS[key.charCodeAt(c) & 127]!;
    }
    scratch[w] = w === 0 ? word | OCCUPIED : word;
  }
  return scratch;
}

/**
 * A hash table from SHA-256 digests (base64url, as digestOf and identityOf give them) or integers
 * to integers (0 to 2^31 - 1), kept in typed arrays outside the JavaScript heap: 21-43
 * bytes an entry whatever the text that was hashed. An upload keeps an entry per result or test
 * for its whole length (what it saw, to skip duplicates and number retries; the stable ids it
 * resolved); as strings in Maps that was 100-350 bytes each, the heap grew with the report, and
 * V8 let it grow two to four times more before a full GC. A key is the digest's first 90 bits:
 * two different texts share one with a chance of about n^2 / 2^91 (4e-16 for a million).
 * Open addressing with linear probing, at most three quarters full (16 bytes a slot).
 */
export class FingerprintTable {
  private keys!: Int32Array;
  private values!: Int32Array;
  private mask = 0;
  private count = 0;

  constructor() {
    this.allocate(FIRST_SLOTS);
  }

  get size(): number {
    return this.count;
  }

  get(key: FingerprintKey): number | undefined {
    return this.getWords(keyWords(key), 0);
  }

  set(key: FingerprintKey, value: number): void {
    this.setWords(keyWords(key), 0, value);
  }

  /**
   * Each entry's key, as the three words of `words` from `at` (for getWords and setWords; valid
   * during the call), and its value.
   */
  forEachEntry(visit: (words: Int32Array, at: number, value: number) => void): void {
    for (let slot = 0; slot < this.values.length; slot++) {
      if (this.keys[slot * WORDS] !== 0) visit(this.keys, slot * WORDS, this.values[slot]!);
    }
  }

  /** get() with a key as forEachEntry or keyWords (at 0) give it. */
  getWords(words: Int32Array, at: number): number | undefined {
    const slot = this.find(words, at);
    return this.keys[slot * WORDS] === 0 ? undefined : this.values[slot];
  }

  /** set() with a key as forEachEntry or keyWords (at 0) give it. */
  setWords(words: Int32Array, at: number, value: number): void {
    if (!(value >= 0 && value <= 0x7fffffff)) throw new Error(`value out of range: ${value}`);
    const slot = this.find(words, at);
    const to = slot * WORDS;
    if (this.keys[to] === 0) {
      for (let w = 0; w < WORDS; w++) this.keys[to + w] = words[at + w]!;
      this.count++;
    }
    this.values[slot] = value;
    if (this.count * 4 > this.values.length * 3) this.grow();
  }

  /** The slot holding the key words[at..at + KEY_WORDS), or the empty slot where it would go. */
  private find(words: Int32Array, at: number): number {
    const keys = this.keys;
    const mask = this.mask;
    const first = words[at]!;
    for (let slot = words[at + 1]! & mask; ; slot = (slot + 1) & mask) {
      const to = slot * WORDS;
      const held = keys[to];
      if (held === 0) return slot;
      if (held === first && keys[to + 1] === words[at + 1] && keys[to + 2] === words[at + 2]) {
        return slot;
      }
    }
  }

  /** Gives the table's memory back (see discard), leaving it empty. */
  release(): void {
    const buffer = this.keys.buffer as ArrayBuffer;
    this.allocate(FIRST_SLOTS);
    discard(buffer);
  }

  /** Empty arrays for `slots` slots, in one ArrayBuffer. */
  private allocate(slots: number): void {
    const bytes = slots * (WORDS + 1) * Int32Array.BYTES_PER_ELEMENT;
    const buffer = new ArrayBuffer(bytes);
    this.keys = new Int32Array(buffer, 0, slots * WORDS);
    this.values = new Int32Array(buffer, slots * WORDS * Int32Array.BYTES_PER_ELEMENT, slots);
    this.mask = slots - 1;
    this.count = 0;
  }

  private grow(): void {
    const keys = this.keys;
    const values = this.values;
    this.allocate(values.length * 2);
    for (let slot = 0; slot < values.length; slot++) {
      if (keys[slot * WORDS] !== 0) this.setWords(keys, slot * WORDS, values[slot]!);
    }
    discard(keys.buffer as ArrayBuffer);
  }
}

/**
 * Has `buffer`'s memory freed at V8's next minor collection, milliseconds away during an upload,
 * instead of its next full one: the memory moves to a clone that nothing holds, and the clone is
 * young where a table's own arrays had been promoted. Left to V8, the dead arrays of tables that
 * had grown or were done with held 20-30 MB more than the live ones at the end of a 300k-result
 * upload. (A resizable ArrayBuffer shrunk to 0 frees at once, but typed arrays on one are slower
 * in this V8: parsing and preparing a 100k-test file took 8-15% more CPU.)
 */
function discard(buffer: ArrayBuffer): void {
  structuredClone(buffer, { transfer: [buffer] });
}
