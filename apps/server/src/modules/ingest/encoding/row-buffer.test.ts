import { describe, expect, it } from "vitest";
import { RowBuffer } from "./row-buffer.js";

const text = (chunks: Iterable<Buffer>) => Buffer.concat([...chunks]).toString("utf8");

describe("RowBuffer", () => {
  it("gives back every row after its two ids, in order, across chunk boundaries and growth", () => {
    // A small start and small chunks: the buffer grows and rows straddle chunk edges.
    const rows = new RowBuffer(16);
    const tails = Array.from({ length: 500 }, (_, i) => `row ${i}\tété 😀 ${"x".repeat(i % 37)}\n`);
    for (const tail of tails) rows.append(tail);
    expect(rows.rows).toBe(500);
    // Ids of every length, up to the largest safe integer.
    const ids = tails.map((_, i) => (i === 499 ? Number.MAX_SAFE_INTEGER : 10 ** (i % 16) + i));
    const testIds = tails.map((_, i) => i + 1);
    const chunks = [...rows.chunks([ids, testIds], 256)];
    expect(chunks.length).toBeGreaterThan(10);
    expect(text(chunks)).toBe(tails.map((tail, i) => `${ids[i]}\t${i + 1}\t${tail}`).join(""));
    // No chunk ends inside a row.
    for (const chunk of chunks) expect(chunk.toString("utf8").endsWith("\n")).toBe(true);
  });

  it("sends a row larger than a chunk whole, and is empty after clear()", () => {
    const rows = new RowBuffer(8);
    const big = `${"é".repeat(1000)}\n`;
    rows.append("a\n");
    rows.append(big);
    rows.append("b\n");
    expect(
      text(
        rows.chunks(
          [
            [1, 20, 300],
            [9, 0, 7],
          ],
          64,
        ),
      ),
    ).toBe(`1\t9\ta\n20\t0\t${big}300\t7\tb\n`);
    rows.clear();
    expect(rows.rows).toBe(0);
    expect([...rows.chunks([[], []])]).toEqual([]);
    rows.append("again\n");
    expect(text(rows.chunks([[5], [6]]))).toBe("5\t6\tagain\n");
  });

  it("puts each row's facts id third when given, \\N for none", () => {
    const rows = new RowBuffer(8);
    rows.append("a\n");
    rows.append("b\n");
    expect(
      text(
        rows.chunks(
          [
            [1, 2],
            [9, 8],
            [42, null],
          ],
          64,
        ),
      ),
    ).toBe("1\t9\t42\ta\n2\t8\t\\N\tb\n");
  });
});
