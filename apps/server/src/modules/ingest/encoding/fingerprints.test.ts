import { describe, expect, it } from "vitest";
import { digestOf, FingerprintTable } from "./fingerprints.js";

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

  it("hands its buffer over on growth and on release(), empty and usable again", () => {
    const table = new FingerprintTable();
    const bufferOf = () => {
      let buffer: ArrayBufferLike | undefined;
      table.set(0, 0);
      table.forEachEntry((words) => (buffer ??= words.buffer));
      return buffer!;
    };
    // Detached: its memory went to a clone nothing holds, freed at V8's next minor GC rather
    // than at its next full one.
    const first = bufferOf();
    for (let i = 1; i < 5_000; i++) table.set(i, i);
    expect(first.byteLength).toBe(0);
    const grown = bufferOf();
    expect(grown.byteLength).toBe(8_192 * 16);
    table.release();
    expect(grown.byteLength).toBe(0);
    expect([table.size, table.get(5)]).toEqual([0, undefined]);
    table.set(5, 7);
    expect([table.size, table.get(5)]).toEqual([1, 7]);
  });
});
