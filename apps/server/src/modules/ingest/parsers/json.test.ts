import { describe, expect, it } from "vitest";
import { jsonPath, parseJsonText } from "./json.js";

const readJson = async (text: string) => parseJsonText("report.json", text);

describe("parseJsonText", () => {
  it("parses a report", async () => {
    expect(await readJson('{"a":[1,{"b":"x"}]}')).toEqual({ a: [1, { b: "x" }] });
  });

  it("refuses __proto__ and constructor.prototype keys", async () => {
    await expect(readJson('{"__proto__":{"polluted":true}}')).rejects.toThrow(
      "report.json: JSON with __proto__ or constructor.prototype keys is refused",
    );
    await expect(readJson('{"constructor":{"prototype":{"x":1}}}')).rejects.toThrow(/refused/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("refuses nesting beyond the limit, with the position", async () => {
    const deep = "[".repeat(100) + "]".repeat(100);
    await expect(readJson(deep)).rejects.toThrow(
      "report.json (line 1, column 65): JSON is nested deeper than 64 levels",
    );
  });

  it("does not count brackets inside strings", async () => {
    expect(await readJson(JSON.stringify({ s: "[".repeat(200) }))).toEqual({
      s: "[".repeat(200),
    });
  });

  it("names the line and column of a syntax error", async () => {
    await expect(readJson('{\n  "a": 1,\n  "b": oops\n}')).rejects.toThrow(
      "report.json (line 3, column 8): invalid JSON: invalid symbol",
    );
  });

  it("names what was expected at an unfinished object", async () => {
    await expect(readJson('{"a": 1')).rejects.toThrow(
      "report.json (line 1, column 8): invalid JSON: close brace expected",
    );
  });

  it("formats JSON paths", () => {
    expect(jsonPath(["elements", 3, "steps", 0])).toBe("$.elements[3].steps[0]");
  });
});
