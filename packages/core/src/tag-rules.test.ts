import { describe, expect, it } from "vitest";
import {
  canAddTag,
  compareTagNames,
  isAlreadyOnTest,
  normalizeTag,
  TAG_NAME_MAX_LENGTH,
} from "./tag-rules.js";

describe("normalizeTag", () => {
  it("trims and lower-cases", () => {
    expect(normalizeTag("  @Smoke-Checkout ")).toEqual({ ok: true, name: "@smoke-checkout" });
    expect(normalizeTag("@Unstable")).toEqual({ ok: true, name: "@unstable" });
  });

  it("refuses an empty or blank name", () => {
    for (const raw of ["", "   ", "\n\t "]) {
      expect(normalizeTag(raw)).toEqual({ ok: false, message: "A tag name cannot be empty." });
    }
  });

  it("refuses control characters inside the name", () => {
    for (const raw of ["@a\nb", "@a\tb", "@a\u0000b", "@a\u007fb", "@a\u0085b"]) {
      const check = normalizeTag(raw);
      expect(check.ok).toBe(false);
      expect(check.ok === false && check.message).toMatch(/control characters/);
    }
  });

  it("accepts exactly the maximum length, counted in characters, and refuses one more", () => {
    const longest = `@${"a".repeat(TAG_NAME_MAX_LENGTH - 1)}`;
    expect(normalizeTag(longest)).toEqual({ ok: true, name: longest });
    // Letters of any script count, each one character.
    expect(normalizeTag(`@${"é".repeat(TAG_NAME_MAX_LENGTH - 1)}`).ok).toBe(true);
    expect(normalizeTag(`${longest}a`)).toEqual({
      ok: false,
      message: "A tag name can have at most 100 characters; this one has 101.",
    });
  });

  it("measures the length after trimming", () => {
    expect(normalizeTag(`  @${"b".repeat(TAG_NAME_MAX_LENGTH - 1)}  `).ok).toBe(true);
  });

  it("accepts @ then letters, digits and - _ . : /, and refuses any other text with why", () => {
    for (const raw of [
      "@smoke",
      "@rms-9102",
      "@team/payments",
      "@jira:nxl-12",
      "@v1.2_x",
      "@été",
    ]) {
      expect(normalizeTag(raw).ok).toBe(true);
    }
    const refused = (raw: string) => {
      const check = normalizeTag(raw);
      return check.ok ? "" : check.message;
    };
    expect(refused("no-at-sign")).toBe(
      "“no-at-sign” is not a tag: a tag starts with @, then letters, digits and - _ . : /, e.g. @smoke.",
    );
    expect(refused("<script>alert(1)</script>")).toMatch(/a tag starts with @/);
    expect(refused('@"><img src=x onerror=alert(1)>')).toMatch(/after the @ use only letters/);
    expect(refused("@smoke checkout")).toMatch(/no spaces/);
    expect(refused("@")).toMatch(/after the @/);
  });

  it("keeps a tag made before the rule usable under its stored name", () => {
    expect(normalizeTag(" Smoke Checkout", ["smoke checkout"])).toEqual({
      ok: true,
      name: "smoke checkout",
    });
    expect(normalizeTag("smoke", ["smoke checkout"]).ok).toBe(false);
  });
});

describe("canAddTag (build dialog)", () => {
  const known = ["smoke", "@unstable", "Checkout"];

  it("allows a known tag that is not selected yet", () => {
    expect(canAddTag("smoke", known, [])).toBe(true);
    expect(canAddTag("checkout", known, ["smoke"])).toBe(true);
  });

  it("compares lower-cased, both with the list and with the selection", () => {
    expect(canAddTag("SMOKE", known, [])).toBe(true);
    expect(canAddTag("smoke", known, ["Smoke"])).toBe(false);
    expect(canAddTag(" Checkout ", known, ["CHECKOUT"])).toBe(false);
  });

  it("refuses an unknown tag and an empty one", () => {
    expect(canAddTag("regression", known, [])).toBe(false);
    expect(canAddTag("", known, [])).toBe(false);
    expect(canAddTag("  ", ["  "], [])).toBe(false);
  });
});

describe("isAlreadyOnTest", () => {
  it("finds the tag whatever its case or surrounding spaces", () => {
    expect(isAlreadyOnTest("Smoke", ["smoke", "login"])).toBe(true);
    expect(isAlreadyOnTest(" login ", ["smoke", "login"])).toBe(true);
  });

  it("is false for a tag the test does not carry", () => {
    expect(isAlreadyOnTest("checkout", ["smoke"])).toBe(false);
    expect(isAlreadyOnTest("smoke", [])).toBe(false);
  });
});

describe("compareTagNames", () => {
  it("sorts by name, code point by code point, shorter prefix first", () => {
    const names = ["smoke", "@unstable", "checkout", "check", "123", "zz", "émail"];
    expect([...names].sort(compareTagNames)).toEqual([
      "123",
      "@unstable",
      "check",
      "checkout",
      "smoke",
      "zz",
      "émail",
    ]);
  });

  it("orders characters beyond the basic plane by code point, as PostgreSQL's C collation", () => {
    // U+1F9EA (test tube) is above U+FF01 by code point, though below it in UTF-16 units.
    expect(compareTagNames("\u{1F9EA}", "\uFF01")).toBeGreaterThan(0);
    expect(compareTagNames("a", "a")).toBe(0);
  });
});
