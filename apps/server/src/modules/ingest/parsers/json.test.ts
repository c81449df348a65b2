import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { jsonPath, MAX_JSON_REPORT_BYTES, readJson } from "./json.js";
import type { ReportFile } from "./types.js";

const file = (text: string): ReportFile => ({
  name: "report.json",
  size: text.length,
  open: () => Readable.from([Buffer.from(text)]),
});

describe("readJson", () => {
  it("parses a report", async () => {
    expect(await readJson(file('{"a":[1,{"b":"x"}]}'))).toEqual({ a: [1, { b: "x" }] });
  });

  it("refuses a file over the limit for JSON reports with 413, without reading it", async () => {
    const huge: ReportFile = {
      name: "ctrf-report.json",
      size: MAX_JSON_REPORT_BYTES + 1,
      open: () => {
        throw new Error("read a file it should have refused");
      },
    };
    await expect(readJson(huge)).rejects.toMatchObject({
      statusCode: 413,
      code: "payload_too_large",
      message: expect.stringMatching(
        /^ctrf-report\.json is 129 MB: JSON reports are read whole, up to 128 MB a file\./,
      ),
    });
  });

  it("refuses __proto__ and constructor.prototype keys", async () => {
    await expect(readJson(file('{"__proto__":{"polluted":true}}'))).rejects.toThrow(
      "report.json: JSON with __proto__ or constructor.prototype keys is refused",
    );
    await expect(readJson(file('{"constructor":{"prototype":{"x":1}}}'))).rejects.toThrow(
      /refused/,
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("refuses nesting beyond the limit, with the position", async () => {
    const deep = "[".repeat(100) + "]".repeat(100);
    await expect(readJson(file(deep))).rejects.toThrow(
      "report.json (line 1, column 65): JSON is nested deeper than 64 levels",
    );
  });

  it("does not count brackets inside strings", async () => {
    expect(await readJson(file(JSON.stringify({ s: "[".repeat(200) })))).toEqual({
      s: "[".repeat(200),
    });
  });

  it("names the line and column of a syntax error", async () => {
    await expect(readJson(file('{\n  "a": 1,\n  "b": oops\n}'))).rejects.toThrow(
      "report.json (line 3, column 8): invalid JSON: invalid symbol",
    );
  });

  it("names what was expected at an unfinished object", async () => {
    await expect(readJson(file('{"a": 1'))).rejects.toThrow(
      "report.json (line 1, column 8): invalid JSON: close brace expected",
    );
  });

  it("formats JSON paths", () => {
    expect(jsonPath(["elements", 3, "steps", 0])).toBe("$.elements[3].steps[0]");
  });
});
