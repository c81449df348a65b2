import { describe, expect, it } from "vitest";
import { keyProblem, newObjectKey, safeContentType, validateKey } from "./object-store.js";

describe("validateKey", () => {
  it.each([
    ["attachments/2026/11/0f8e6f1c-1b7e-4a39-9a53-2f1f0e0f5a11.png"],
    ["reports/a_b-c.d/e.tar.gz"],
    ["x"],
  ])("accepts %s", (key) => {
    expect(keyProblem(key)).toBeUndefined();
    expect(validateKey(key)).toBe(key);
  });

  const refused: [string, string][] = [
    ["", "the key is empty"],
    ["../etc/passwd", "'..' segment"],
    ["attachments/../../etc/passwd", "'..' segment"],
    ["attachments/..", "'..' segment"],
    ["/etc/passwd", "starts with a slash"],
    ["a\\b", "backslash"],
    ["\\\\server\\share", "backslash"],
    ["C:\\Windows\\win.ini", "backslash"],
    ["a\0b.png", "NUL"],
    ["%2e%2e/x", "encoded traversal"],
    ["..%2f..%2fetc", "encoded traversal"],
    ["a%2fb", "encoded traversal"],
    ["a%2Fb", "encoded traversal"],
    ["a%5cb", "encoded traversal"],
    ["%252e%252e%252f", "encoded traversal"],
    ["x.png%00.html", "encoded traversal"],
    ["a%41b", "percent-encoding"],
    ["....//x", "empty segment"],
    ["a//b", "empty segment"],
    ["a/", "empty segment"],
    ["..;/x", "starts with a dot"],
    ["a;/x", 'contains ";"'],
    [".hidden", "starts with a dot"],
    ["a/./b", "starts with a dot"],
    ["a/.b.png.meta.json", "starts with a dot"],
    ["file:///etc/passwd", "empty segment"],
    ["a b", 'contains " "'],
    ["a\r\nX-Injected: 1", 'contains "\\r"'],
    ["\u202Egnp.exe", "contains"],
    ["é.png", 'contains "é"'],
    ["a".repeat(1025), "longer than 1024"],
  ];
  // Named by a short label: the 1,025-character key would flood the test report.
  it.each(refused.map(([key, reason]) => [JSON.stringify(key).slice(0, 40), reason, key]))(
    "refuses %s (%s)",
    (_label, reason, key) => {
      expect(keyProblem(key)).toContain(reason);
      expect(() => validateKey(key)).toThrow(
        expect.objectContaining({ statusCode: 400, code: "invalid_object_key" }),
      );
    },
  );

  it("says what is wrong in the error message", () => {
    expect(() => validateKey("a/../b")).toThrow("Invalid object key: it contains a '..' segment.");
  });
});

describe("newObjectKey", () => {
  const now = new Date("2026-11-03T23:59:00Z");

  it("makes a dated, random, valid key from a prefix and an extension", () => {
    const key = newObjectKey("attachments", "PNG", now);
    expect(key).toMatch(/^attachments\/2026\/11\/[0-9a-f-]{36}\.png$/);
    expect(keyProblem(key)).toBeUndefined();
    expect(newObjectKey("attachments", "png", now)).not.toBe(key);
  });

  it("drops an extension a client could have shaped, and a trailing slash of the prefix", () => {
    expect(newObjectKey("attachments/", ".jpg", now)).toMatch(
      /^attachments\/2026\/11\/[^/]+\.jpg$/,
    );
    for (const ext of ["png/../../x", "html\0", "p n g", "", "a".repeat(17)]) {
      expect(newObjectKey("attachments", ext, now)).toMatch(
        /^attachments\/2026\/11\/[0-9a-f-]{36}$/,
      );
    }
  });

  it("refuses a bad prefix", () => {
    expect(() => newObjectKey("../x")).toThrow(/bad prefix/);
  });
});

describe("safeContentType", () => {
  it("keeps a well-formed media type and replaces anything else", () => {
    expect(safeContentType("image/png")).toBe("image/png");
    expect(safeContentType("text/plain; charset=utf-8")).toBe("text/plain; charset=utf-8");
    expect(safeContentType("text/html\r\nX-Injected: 1")).toBe("application/octet-stream");
    expect(safeContentType("png")).toBe("application/octet-stream");
  });
});
