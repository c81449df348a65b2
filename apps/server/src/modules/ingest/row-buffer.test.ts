import { describe, expect, it } from "vitest";
import { RowBuffer } from "./row-buffer.js";

const text = (chunks: Iterable<Buffer>) => Buffer.concat([...chunks]).toString("utf8");

describe("RowBuffer", () => {
  it("gives back every row with its head, in order, across chunk boundaries and growth", () => {
    // A small start and small chunks: the buffer grows and rows straddle chunk edges.
    const rows = new RowBuffer(16);
    const tails = Array.from({ length: 500 }, (_, i) => `row ${i}\tété 😀 ${"x".repeat(i % 37)}\n`);
    for (const tail of tails) rows.append(tail);
    expect(rows.rows).toBe(500);
    const chunks = [...rows.chunks((i) => `${i}\tß\t`, 256)];
    expect(chunks.length).toBeGreaterThan(10);
    expect(text(chunks)).toBe(tails.map((tail, i) => `${i}\tß\t${tail}`).join(""));
    // No chunk ends inside a row.
    for (const chunk of chunks) expect(chunk.toString("utf8").endsWith("\n")).toBe(true);
  });

  it("sends a row larger than a chunk whole, and is empty after clear()", () => {
    const rows = new RowBuffer(8);
    const big = `${"é".repeat(1000)}\n`;
    rows.append("a\n");
    rows.append(big);
    rows.append("b\n");
    expect(text(rows.chunks(() => "h\t", 64))).toBe(`h\ta\nh\t${big}h\tb\n`);
    rows.clear();
    expect(rows.rows).toBe(0);
    expect([...rows.chunks(() => "h\t")]).toEqual([]);
    rows.append("again\n");
    expect(text(rows.chunks(() => ""))).toBe("again\n");
  });
});
