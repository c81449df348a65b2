/** A small seeded PRNG (mulberry32): generated reports are the same on every run. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  hex(length: number): string {
    let out = "";
    while (out.length < length)
      out += Math.floor(this.next() * 0x100000000)
        .toString(16)
        .padStart(8, "0");
    return out.slice(0, length);
  }

  uuid(): string {
    const h = this.hex(32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20)}`;
  }
}

export const AREAS = [
  "checkout",
  "cart",
  "search",
  "accounts",
  "payments",
  "catalogue",
  "shipping",
  "reviews",
  "wishlist",
  "notifications",
] as const;
const VERBS = ["shows", "updates", "rejects", "accepts", "keeps", "sorts", "filters", "opens"];
const OBJECTS = ["the total", "a coupon", "the address form", "the basket badge", "a saved card"];
const CONDITIONS = ["on a slow network", "after a reload", "for a guest", "in dark mode", "twice"];

/** A test title as people write them: "updates the total after a reload (12)". */
export function testTitle(random: Random, index: number): string {
  return `${random.pick(VERBS)} ${random.pick(OBJECTS)} ${random.pick(CONDITIONS)} (${index})`;
}

/** A JavaScript-style stack trace of `frames` frames, about 90 characters each. */
export function stackTrace(random: Random, head: string, file: string, frames: number): string {
  const lines = [
    head,
    `    at Context.<anonymous> (${file}:${random.int(10, 400)}:${random.int(3, 40)})`,
  ];
  for (let i = 2; i < frames; i++) {
    lines.push(
      random.pick([
        `    at processImmediate (node:internal/timers:483:21)`,
        `    at async Promise.all (index ${i})`,
        `    at Page.waitForSelector (node_modules/playwright-core/lib/client/page.js:${random.int(100, 900)}:${random.int(5, 40)})`,
        `    at runTest (node_modules/mocha/lib/runner.js:${random.int(100, 900)}:${random.int(5, 40)})`,
        `    at Object.assertEqual (tests/support/assertions.ts:${random.int(5, 120)}:${random.int(3, 30)})`,
      ]),
    );
  }
  return lines.join("\n");
}
