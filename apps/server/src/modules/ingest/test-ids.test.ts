import { describe, expect, it } from "vitest";
import { identityOf, TestIdCache } from "./test-ids.js";

const identity = (i: number) => identityOf("frontend", undefined, ["suite"], `test ${i}`);

describe("TestIdCache", () => {
  it("keeps the most recent entries within its bound and lets the oldest go", () => {
    const cache = new TestIdCache(1000);
    for (let i = 0; i < 5000; i++) cache.set(identity(i), 1_000_000 + i);
    expect(cache.size).toBeLessThanOrEqual(1000);
    expect(cache.size).toBeGreaterThanOrEqual(500);
    // The last half of the bound is always there; the first ones are gone.
    for (let i = 4500; i < 5000; i++) expect(cache.get(identity(i))).toBe(1_000_000 + i);
    expect(cache.get(identity(0))).toBeUndefined();
  });

  it("gives an explicit id back as itself, and keeps an id past its range out", () => {
    const cache = new TestIdCache(10);
    cache.set(123_456_789_012_345, 123_456_789_012_345);
    cache.set(identity(1), 2 ** 31);
    cache.set(identity(2), 2 ** 31 - 1);
    expect(cache.get(123_456_789_012_345)).toBe(123_456_789_012_345);
    expect(cache.get(123_456_789_012_346)).toBeUndefined();
    expect(cache.get(identity(1))).toBeUndefined();
    expect(cache.get(identity(2))).toBe(2 ** 31 - 1);
  });

  it("takes every entry of another cache, and updates a key it holds without a second entry", () => {
    const known = new TestIdCache(100);
    known.set(identity(1), 11);
    const learned = new TestIdCache(100);
    learned.set(identity(1), 12);
    learned.set(identity(2), 22);
    learned.set(7, 7);
    known.addAll(learned);
    expect([known.get(identity(1)), known.get(identity(2)), known.get(7), known.size]).toEqual([
      12, 22, 7, 3,
    ]);
  });
});
