import { hash } from "node:crypto";

/** The characters of a digest read as its key: 20 base64url characters, 120 bits. */
const KEY_CHARS = 20;
const WORDS = 4;
const CHARS_PER_WORD = KEY_CHARS / WORDS;
/** Set in a slot's first word when it holds a key: a key word itself has at most 30 bits. */
const OCCUPIED = 1 << 30;
const FIRST_SLOTS = 1024;

/** base64url character code -> its 6-bit value. */
const SEXTETS = new Uint8Array(128);
"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
  .split("")
  .forEach((char, value) => (SEXTETS[char.charCodeAt(0)] = value));

/** The SHA-256 of `text`, as base64url: what a FingerprintTable takes as a key. */
export const digestOf = (text: string): string => hash("sha256", text, "base64url");

/**
 * A hash table from SHA-256 digests (base64url, as digestOf and identityOf give them) to integers
 * (0 to 2^31 - 1), kept in two typed arrays: about 40 bytes an entry whatever the text that was
 * hashed. An upload's parse worker keeps one entry per result for the whole upload (what it saw,
 * to skip duplicates and number retries); as strings in Maps that was 250-350 bytes a result, and
 * the worker's heap grew with the report. A key is the digest's first 120 bits: two different
 * texts share one with a chance of about n^2 / 2^121 (1e-24 for a million results).
 * Open addressing with linear probing, at most half full.
 */
export class FingerprintTable {
  private keys = new Int32Array(FIRST_SLOTS * WORDS);
  private values = new Int32Array(FIRST_SLOTS);
  private mask = FIRST_SLOTS - 1;
  private count = 0;
  /** The key being looked up, as words. */
  private readonly probe = new Int32Array(WORDS);

  get size(): number {
    return this.count;
  }

  get(digest: string): number | undefined {
    const slot = this.slotOf(digest);
    return this.keys[slot * WORDS] === 0 ? undefined : this.values[slot];
  }

  set(digest: string, value: number): void {
    const slot = this.slotOf(digest);
    const at = slot * WORDS;
    if (this.keys[at] === 0) {
      this.keys.set(this.probe, at);
      this.count++;
    }
    this.values[slot] = value;
    if (this.count * 2 > this.values.length) this.grow();
  }

  /** The slot holding the digest's key, or the empty slot where it would go. */
  private slotOf(digest: string): number {
    if (digest.length < KEY_CHARS) throw new Error(`not a digest: ${JSON.stringify(digest)}`);
    const probe = this.probe;
    for (let w = 0, c = 0; w < WORDS; w++) {
      let word = 0;
      for (const end = c + CHARS_PER_WORD; c < end; c++) {
        word = (word << 6) | SEXTETS[digest.charCodeAt(c) & 127]!;
      }
      probe[w] = w === 0 ? word | OCCUPIED : word;
    }
    return this.find(probe);
  }

  private find(key: Int32Array): number {
    const keys = this.keys;
    const mask = this.mask;
    for (let slot = key[1]! & mask; ; slot = (slot + 1) & mask) {
      const at = slot * WORDS;
      const first = keys[at];
      if (first === 0) return slot;
      if (
        first === key[0] &&
        keys[at + 1] === key[1] &&
        keys[at + 2] === key[2] &&
        keys[at + 3] === key[3]
      ) {
        return slot;
      }
    }
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldValues = this.values;
    this.keys = new Int32Array(oldKeys.length * 2);
    this.values = new Int32Array(oldValues.length * 2);
    this.mask = this.values.length - 1;
    for (let slot = 0; slot < oldValues.length; slot++) {
      const at = slot * WORDS;
      if (oldKeys[at] === 0) continue;
      const key = oldKeys.subarray(at, at + WORDS);
      const to = this.find(key);
      this.keys.set(key, to * WORDS);
      this.values[to] = oldValues[slot]!;
    }
  }
}
