import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { readJsonArray } from "./json-array.js";
import type { ReportFile } from "./types.js";

const NOT_ARRAY = "not an array of features";

/** A file read in pieces of `size` bytes. */
function file(text: string | Buffer, size = 1 << 16): ReportFile {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text);
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return { name: "r.json", size: bytes.length, open: () => Readable.from(chunks) };
}

async function all(report: ReportFile): Promise<unknown[]> {
  const values: unknown[] = [];
  for await (const value of readJsonArray(report, NOT_ARRAY)) values.push(value);
  return values;
}

describe("readJsonArray", () => {
  const doc = [
    { name: 'brackets ], [ and } { in "strings"', tags: [] },
    { path: "C:\\tests\\", escaped: '\\"],[' },
    [1, [2, [3]]],
    "text, with a comma",
    42,
    null,
    { unicode: "é ✓ 日本", nested: { a: [{ b: {} }] } },
  ];

  it("yields each element as JSON.parse reads it, whatever the chunks", async () => {
    const text = `\uFEFF \n${JSON.stringify(doc, null, 2)}\n`;
    for (const size of [1, 2, 7, 64, 1 << 16]) {
      expect(await all(file(text, size))).toEqual(doc);
    }
    expect(await all(file("[]"))).toEqual([]);
    expect(await all(file(" [ ] \n"))).toEqual([]);
  });

  it("yields the first element before the rest of the file is read", async () => {
    let release!: () => void;
    const rest = new Promise<void>((resolve) => (release = resolve));
    const report: ReportFile = {
      name: "r.json",
      size: 0,
      open: () =>
        Readable.from(
          (async function* () {
            yield Buffer.from('[{"a": 1}, ');
            await rest;
            yield Buffer.from('{"b": 2}]');
          })(),
        ),
    };
    const elements = readJsonArray(report, NOT_ARRAY);
    expect((await elements.next()).value).toEqual({ a: 1 });
    release();
    expect((await elements.next()).value).toEqual({ b: 2 });
    expect((await elements.next()).done).toBe(true);
  });

  it("names what is wrong and where, in the file's lines and columns", async () => {
    const cases: [string, string][] = [
      ['{"a": 1}', `r.json: ${NOT_ARRAY}`],
      ["", `r.json: ${NOT_ARRAY}`],
      ["[1,]", "r.json (line 1, column 4): invalid JSON: a value expected"],
      ["[,1]", "r.json (line 1, column 2): invalid JSON: a value expected"],
      ["[1] x", "r.json (line 1, column 5): invalid JSON: unexpected text after the array"],
      [
        '[{"a": 1}',
        "r.json (line 1, column 10): invalid JSON: the file ends before its array does",
      ],
      [
        '[\n  {"a": 1},\n  {"b": 2,,}\n]',
        "r.json (line 3, column 11): invalid JSON: property name expected",
      ],
      ['[{"name": "x",]', "r.json (line 1, column 15): invalid JSON: property name expected"],
    ];
    for (const [text, message] of cases) {
      for (const size of [1, 1 << 16]) {
        await expect(all(file(text, size)), text).rejects.toThrow(message);
      }
    }
  });

  it("keeps parseJsonText's protections for each element", async () => {
    await expect(all(file('[{"ok": 1}, {"__proto__": {"polluted": true}}]'))).rejects.toThrow(
      "r.json: JSON with __proto__ or constructor.prototype keys is refused",
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const deep = `[${"[".repeat(65)}${"]".repeat(65)}]`;
    await expect(all(file(deep))).rejects.toThrow(
      "r.json (line 1, column 66): JSON is nested deeper than 64 levels",
    );
  });
});
