import { describe, expect, it } from "vitest";
import { CONSOLE_LOG_LINE_LIMIT, consoleLogLines, truncateLine } from "./console-log.js";

describe("consoleLogLines", () => {
  it("splits on newlines and drops the empty line a final newline leaves", () => {
    expect(consoleLogLines("one\r\ntwo\n\nthree\n")).toEqual(["one", "two", "", "three"]);
  });

  it("has no lines for a missing or empty log", () => {
    expect(consoleLogLines(null)).toEqual([]);
    expect(consoleLogLines("")).toEqual([]);
  });
});

describe("truncateLine", () => {
  it("cuts lines at 100 characters (spec section 9)", () => {
    expect(CONSOLE_LOG_LINE_LIMIT).toBe(100);
    const long = "x".repeat(150);
    expect(truncateLine(long)).toEqual({ text: "x".repeat(100), truncated: true });
  });

  it("keeps a line of exactly the limit whole", () => {
    const exact = "y".repeat(100);
    expect(truncateLine(exact)).toEqual({ text: exact, truncated: false });
  });

  it("never splits a character outside the BMP", () => {
    const line = "😀".repeat(101);
    const cut = truncateLine(line);
    expect(cut.truncated).toBe(true);
    expect(Array.from(cut.text)).toHaveLength(100);
    expect(cut.text).toBe("😀".repeat(100));
  });
});
