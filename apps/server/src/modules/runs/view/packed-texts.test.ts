import { describe, expect, it } from "vitest";
import { packTexts } from "./packed-texts.js";

describe("a view's per-result texts, packed", () => {
  // Over two chunks' worth (2,048 a chunk), with nulls, empty texts and two-byte characters at
  // and around the chunks' edges.
  const texts = Array.from({ length: 5000 }, (_, i) => {
    if (i % 7 === 0 || i === 2047 || i === 2048) return null;
    if (i % 11 === 0 || i === 4095) return "";
    return i % 13 === 0 ? `Prüfung ${i} — 検査` : `TC${i} checks the page ${"x".repeat(i % 40)}`;
  });
  const packed = packTexts(texts);

  it("gives each text back as it was, nulls and empty texts too", () => {
    expect(packed.length).toBe(texts.length);
    for (let i = 0; i < texts.length; i++) expect(packed.get(i), `text ${i}`).toBe(texts[i]);
  });

  it("tells whether a text is a given one without cutting it out", () => {
    expect(packed.is(1, "TC1 checks the page x")).toBe(true);
    expect(packed.is(1, "TC1 checks the page")).toBe(false);
    expect(packed.is(1, "TC1 checks the page xx")).toBe(false);
    expect(packed.is(13, texts[13]!)).toBe(true);
    expect(packed.is(0, "")).toBe(false); // null is no text, not even an empty one
    expect(packed.is(11, "")).toBe(true);
    expect(packed.is(2049, texts[2049]!)).toBe(true);
    expect(packed.is(2049, texts[2050]!)).toBe(false);
  });

  it("holds its characters and four bytes a result", () => {
    const chars = texts.reduce((sum, text) => sum + (text?.length ?? 0), 0);
    expect(packed.bytes).toBe(chars + 4 * texts.length);
    expect(packTexts([]).length).toBe(0);
    expect(packTexts([]).bytes).toBe(0);
  });
});
