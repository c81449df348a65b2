import { describe, expect, it } from "vitest";
import { digestOf, FingerprintTable } from "./fingerprints.js";

/** Allocates short-lived objects enough for V8 to run minor GCs, then lets its sweeper finish. */
async function scavenged(): Promise<void> {
  let kept: unknown = null;
  for (let i = 0; i < 1_000_000; i++) kept = { i };
  void kept;
  await new Promise((resolve) => setTimeout(resolve, 25));
}

describe("FingerprintTable", () => {
  it("keeps a value per digest through growth, and tells unknown digests apart", () => {
    const table = new FingerprintTable();
    // Enough entries to double the table several times over (it starts at 1,024 slots).
    const keys = Array.from({ length: 20_000 }, (_, i) => digestOf(`test ${i}`));
    keys.forEach((key, i) => table.set(key, i * 3));
    expect(table.size).toBe(keys.length);
    expect(keys.every((key, i) => table.get(key) === i * 3)).toBe(true);
    expect(table.get(digestOf("test 20000"))).toBeUndefined();
    // Setting a key again replaces its value, and adds no entry.
    table.set(keys[7]!, 2 ** 31 - 1);
    expect(table.get(keys[7]!)).toBe(2 ** 31 - 1);
    expect(table.size).toBe(keys.length);
  });

  it("tells apart digests that differ only in the last character it reads", () => {
    const table = new FingerprintTable();
    const key = digestOf("a");
    const other = key.slice(0, 14) + (key[14] === "A" ? "B" : "A") + key.slice(15);
    table.set(key, 1);
    expect(table.get(other)).toBeUndefined();
    table.set(other, 2);
    expect([table.get(key), table.get(other), table.size]).toEqual([1, 2, 2]);
  });

  it("refuses a key shorter than the 90 bits of a digest it reads", () => {
    expect(() => new FingerprintTable().get("short")).toThrow(/not a digest/);
  });

  it("gives its memory back on release(), empty and usable again", async () => {
    const table = new FingerprintTable();
    // A million entries: 2^21 slots of 16 bytes, a 32 MB buffer.
    for (let i = 0; i < 1_000_000; i++) table.set(i, i);
    await scavenged(); // what the table's growth left
    const before = process.memoryUsage().arrayBuffers;
    table.release();
    const freed = async () => {
      for (let tries = 0; tries < 40; tries++) {
        if (before - process.memoryUsage().arrayBuffers >= 30 * 1024 * 1024) return true;
        await scavenged();
      }
      return false;
    };
    // Freed at a minor GC, not at the next full one (which these tries never cause).
    expect(await freed()).toBe(true);
    expect([table.size, table.get(5)]).toEqual([0, undefined]);
    table.set(5, 7);
    expect([table.size, table.get(5)]).toEqual([1, 7]);
  });
});
