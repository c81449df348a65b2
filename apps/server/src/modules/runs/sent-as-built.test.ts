import { describe, expect, it } from "vitest";
import { charsOf, ITEMS_A_TURN, jsonArrayOf } from "./sent-as-built.js";

/** jsonArrayOf: a run detail's results serialized a slice at a time, the same text at the end. */

const item = (n: number) => ({
  id: n,
  name: `test "${n}"\n\u2028<b>`,
  tags: n % 3 === 0 ? [] : [`@t${n}`],
  error: n % 2 === 0 ? null : { message: "expected 200 but got 500" },
  skipped: undefined,
});

describe("jsonArrayOf", () => {
  it("gives JSON.stringify's text in pieces of a slice each, whatever the number of items", async () => {
    for (const size of [0, 1, ITEMS_A_TURN - 1, ITEMS_A_TURN, 2 * ITEMS_A_TURN + 1]) {
      const numbers = Array.from({ length: size }, (_, n) => n);
      const pieces = await jsonArrayOf(numbers, item);
      const text = JSON.stringify(numbers.map(item));
      expect(pieces.join("")).toBe(text);
      expect(charsOf(pieces)).toBe(text.length);
      expect(pieces).toHaveLength(Math.max(1, Math.ceil(size / ITEMS_A_TURN)));
    }
  });

  it("lets the event loop turn between slices", async () => {
    let turns = 0;
    const ticker = setInterval(() => turns++, 0);
    try {
      const numbers = Array.from({ length: 5 * ITEMS_A_TURN }, (_, n) => n);
      const made = jsonArrayOf(numbers, (n) => {
        // Each slice's work outlasts the timer's 1 ms: a slice ends with the timer due.
        if (n % ITEMS_A_TURN === 0) {
          const until = Date.now() + 2;
          while (Date.now() < until);
        }
        return item(n);
      });
      await made;
    } finally {
      clearInterval(ticker);
    }
    // Four turns between five slices, each running the due timer; none if it ran at once.
    expect(turns).toBeGreaterThanOrEqual(4);
  });
});
