import { describe, expect, it } from "vitest";
import { BatchTests } from "./batch-tests.js";
import { KEY_WORDS, keyWords } from "./fingerprints.js";
import { Packing } from "./packing.js";
import { identityOf, TestIdCache } from "./test-ids.js";

describe("BatchTests", () => {
  it("gives back each test's texts, explicit id and key words after packing, past its first capacity", () => {
    const tests = BatchTests.empty();
    const identity = (i: number) => identityOf("frontend", undefined, ["s"], `t ${i}`);
    for (let i = 0; i < 600; i++) {
      tests.add(
        identity(i),
        i % 3 === 0 ? 9_000 + i : undefined,
        `título ${i} 😀`,
        i % 2 ? "a.ts" : undefined,
      );
    }
    // Packed after some rows, as a worker packs a batch behind its rows, then transferred.
    const packing = new Packing(new ArrayBuffer(Packing.size(10) + tests.packedSize));
    packing.bytes(10).fill(7);
    const packed = tests.packed(packing);
    const posted = BatchTests.unpacked(structuredClone(packed, { transfer: [packing.buffer] }));
    expect(packing.buffer.byteLength).toBe(0);
    expect(posted.count).toBe(600);
    for (const i of [0, 1, 2, 299, 599]) {
      expect([
        posted.identityAt(i),
        posted.explicitIds[i],
        posted.titleAt(i),
        posted.fileAt(i),
      ]).toEqual([
        identity(i),
        i % 3 === 0 ? 9_000 + i : null,
        `título ${i} 😀`,
        i % 2 ? "a.ts" : null,
      ]);
      const key = i % 3 === 0 ? 9_000 + i : identity(i);
      expect([...posted.keys.subarray(i * KEY_WORDS, (i + 1) * KEY_WORDS)]).toEqual([
        ...keyWords(key),
      ]);
    }
    // What a catalogue lookup sends: the identities asked for, comma-separated, as bytes.
    expect(posted.joinedIdentities([1, 599]).toString()).toBe(`${identity(1)},${identity(599)}`);
    expect(posted.joinedIdentities([]).length).toBe(0);
    // A cache finds a test by its key words: an explicit id as itself, an identity's stored id.
    const cache = new TestIdCache(10);
    cache.setAt(tests, 1, 1_000_001);
    cache.setAt(tests, 3, 9_003);
    expect([0, 1, 3].map((i) => cache.getAt(posted, i))).toEqual([undefined, 1_000_001, 9_003]);
  });
});
