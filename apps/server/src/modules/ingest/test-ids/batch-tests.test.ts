import { describe, expect, it } from "vitest";
import { BatchTests } from "./batch-tests.js";
import { KEY_WORDS, keyWords } from "../encoding/fingerprints.js";
import { encodeCopyRow } from "../encoding/copy.js";
import { Packing } from "../encoding/packing.js";
import { TestIdCache } from "./test-id-cache.js";
import { identityOf } from "./test-identity.js";

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
        { name: `t ${i}`, suitePath: ["s", `ş ${i}`] },
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
        posted.explicitIdAt(i),
        posted.titleAt(i),
        posted.fileAt(i),
        posted.nameAt(i),
        posted.suitePathAt(i),
      ]).toEqual([
        identity(i),
        i % 3 === 0 ? 9_000 + i : null,
        `título ${i} 😀`,
        i % 2 ? "a.ts" : null,
        `t ${i}`,
        `{"s","ş ${i}"}`,
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

  it("writes catalogue rows from its bytes exactly as the COPY encoder writes them from strings", () => {
    const tests = BatchTests.empty();
    const titles = [
      "plain",
      "tab\there, newline\nthere\r\nand a back\\slash",
      "nul \u0000 in the middle",
      "título 😀 ünïcode",
      "",
      "x".repeat(30_000),
    ];
    titles.forEach((title, i) => {
      tests.add(
        identityOf("backend", undefined, ["s"], `t ${i}`),
        undefined,
        title,
        i % 2 ? "dir\\a\tb.ts" : undefined,
        { name: title, suitePath: i % 2 ? [] : ["s", title] },
      );
    });
    const positions = [0, 5, 1, 2, 3, 4];
    const ids = positions.map((i) => 1_000_000 + i * 12_345);
    const written = Buffer.concat([...tests.catalogueRows(positions, ids, "backend")]).toString();
    const expected = positions
      .map((i, k) =>
        encodeCopyRow([
          ids[k]!,
          "backend",
          tests.identityAt(i),
          titles[i]!,
          tests.fileAt(i),
          titles[i]!,
          i % 2 ? [] : ["s", titles[i]!],
        ]),
      )
      .join("");
    expect(written).toBe(expected);
    // Several chunks: the 30,000-character title alone needs one of up to 90 KB.
    const pool: Buffer[] = [];
    expect([...tests.catalogueRows(positions, ids, "backend", pool)].length).toBeGreaterThan(1);
    // The next COPY writes into the same buffers, and writes the same rows.
    const held = [...pool];
    const again = Buffer.concat([...tests.catalogueRows(positions, ids, "backend", pool)]);
    expect(again.toString()).toBe(expected);
    expect(pool.length).toBe(held.length);
    expect(pool.every((chunk, i) => chunk === held[i])).toBe(true);
  });
});
