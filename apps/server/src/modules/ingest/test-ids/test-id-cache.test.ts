import { describe, expect, it } from "vitest";
import { BatchTests } from "./batch-tests.js";
import { TestIdCache } from "./test-id-cache.js";
import { identityOf } from "./test-identity.js";

const identity = (i: number) => identityOf("frontend", undefined, ["suite"], `test ${i}`);

/** A batch of tests: numbers are the implicit tests `identity(n)`, [n] the explicit id n. */
function batchOf(tests: (number | [number])[]): BatchTests {
  const batch = BatchTests.empty();
  for (const test of tests) {
    const explicit = Array.isArray(test) ? test[0] : undefined;
    batch.add(identity(explicit ?? (test as number)), explicit, "t", undefined, {
      name: "t",
      suitePath: ["suite"],
    });
  }
  return batch;
}

describe("TestIdCache", () => {
  it("keeps the most recent entries within its bound and lets the oldest go", () => {
    const cache = new TestIdCache(1000);
    const tests = batchOf(Array.from({ length: 5000 }, (_, i) => i));
    for (let i = 0; i < 5000; i++) cache.setAt(tests, i, 1_000_000 + i);
    expect(cache.size).toBeLessThanOrEqual(1000);
    expect(cache.size).toBeGreaterThanOrEqual(500);
    // The last half of the bound is always there; the first ones are gone.
    for (let i = 4500; i < 5000; i++) expect(cache.getAt(tests, i)).toBe(1_000_000 + i);
    expect(cache.getAt(tests, 0)).toBeUndefined();
  });

  it("gives an explicit id back as itself, and keeps an id past its range out", () => {
    const cache = new TestIdCache(10);
    const tests = batchOf([[123_456_789_012_345], 1, 2, [123_456_789_012_346]]);
    cache.setAt(tests, 0, 123_456_789_012_345);
    cache.setAt(tests, 1, 2 ** 31);
    cache.setAt(tests, 2, 2 ** 31 - 1);
    expect([0, 1, 2, 3].map((i) => cache.getAt(tests, i))).toEqual([
      123_456_789_012_345,
      undefined,
      2 ** 31 - 1,
      undefined,
    ]);
  });

  it("takes every entry of another cache, and updates a key it holds without a second entry", () => {
    const tests = batchOf([1, 2, [7]]);
    const known = new TestIdCache(100);
    known.setAt(tests, 0, 11);
    const learned = new TestIdCache(100);
    learned.setAt(tests, 0, 12);
    learned.setAt(tests, 1, 22);
    learned.setAt(tests, 2, 7);
    known.takeAll(learned);
    expect([0, 1, 2].map((i) => known.getAt(tests, i))).toEqual([12, 22, 7]);
    expect(known.size).toBe(3);
    expect(learned.size).toBe(0);
  });

  it("takes the tables of a cache that has turned one over, its entries replacing its own", () => {
    const tests = batchOf(Array.from({ length: 30 }, (_, i) => i));
    const known = new TestIdCache(10);
    known.setAt(tests, 0, 100);
    const learned = new TestIdCache(10);
    for (let i = 10; i < 30; i++) learned.setAt(tests, i, 1000 + i);
    const held = learned.size;
    known.takeAll(learned);
    expect(known.size).toBe(held);
    expect(learned.size).toBe(0);
    expect(known.getAt(tests, 0)).toBeUndefined();
    // The newest half of the bound is there, as learned had it.
    for (let i = 25; i < 30; i++) expect(known.getAt(tests, i)).toBe(1000 + i);
  });
});
