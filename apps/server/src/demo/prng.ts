/**
 * A small seeded random source for the demo data. Math.random is never used: the same seed and
 * date give the same runs, tests and failures, so a demo can be reproduced and its tests are
 * stable.
 */

/** mulberry32: 32 bits of state, good enough spread for made-up test data. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a of the parts, so that each run or test can have its own independent stream. */
export function hashOf(...parts: readonly (string | number)[]): number {
  let hash = 0x811c9dc5;
  for (const char of parts.join("\u0000")) {
    hash ^= char.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** A seeded stream of random choices (mulberry32). */
export class Rng {
  private readonly next: () => number;

  constructor(seed: number) {
    this.next = mulberry32(seed);
  }

  /** A stream of its own for one named thing (a run, a test), independent of call order. */
  static for(...parts: readonly (string | number)[]): Rng {
    return new Rng(hashOf(...parts));
  }

  /** In [0, 1). */
  float(): number {
    return this.next();
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("pick from an empty list");
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** A copy in random order (Fisher-Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
    }
    return copy;
  }

  /** Lower-case hex digits, e.g. for commit hashes and run-key suffixes. */
  hex(length: number): string {
    let text = "";
    while (text.length < length) text += Math.floor(this.next() * 16).toString(16);
    return text;
  }
}
