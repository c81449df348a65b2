import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { MAX_JSON_VALUE_BYTES, StreamedJson } from "./json-stream.js";
import type { ReportFile } from "./types.js";

const NOT_ARRAY = "not an array of features";
const NOT_OBJECT = "not an object with results.tests";

/** A file read in pieces of `size` bytes. */
function file(text: string | Buffer, size = 1 << 16): ReportFile {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text);
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return { name: "r.json", size: bytes.length, open: () => Readable.from(chunks) };
}

async function all(report: ReportFile): Promise<unknown[]> {
  const values: unknown[] = [];
  for await (const { value } of new StreamedJson(report, [[]], NOT_ARRAY).elements()) {
    values.push(value);
  }
  return values;
}

describe("StreamedJson, a top-level array", () => {
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
    const elements = new StreamedJson(report, [[]], NOT_ARRAY).elements();
    expect((await elements.next()).value).toEqual({ list: 0, index: 0, value: { a: 1 } });
    release();
    expect((await elements.next()).value).toEqual({ list: 0, index: 1, value: { b: 2 } });
    expect((await elements.next()).done).toBe(true);
  });

  it("names what is wrong and where, in the file's lines and columns", async () => {
    const cases: [string, string][] = [
      ['{"a": 1}', `r.json: ${NOT_ARRAY}`],
      ["", `r.json: ${NOT_ARRAY}`],
      ["[1,]", "r.json (line 1, column 4): invalid JSON: a value expected"],
      ["[,1]", "r.json (line 1, column 2): invalid JSON: a value expected"],
      ["[1 2]", "r.json (line 1, column 4): invalid JSON: a comma or ] expected"],
      [
        "[1] x",
        "r.json (line 1, column 5): invalid JSON: unexpected text after the end of the report",
      ],
      [
        '[{"a": 1}',
        "r.json (line 1, column 10): invalid JSON: the file ends before the report does",
      ],
      ['[{"a": 1', "r.json (line 1, column 9): invalid JSON: close brace expected"],
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

/** The lists' elements as [list, index, value], and the root once they are read. */
async function read(report: ReportFile, lists: string[][]) {
  const json = new StreamedJson(report, lists, NOT_OBJECT);
  const elements: [number, number, unknown][] = [];
  for await (const { list, index, value } of json.elements()) elements.push([list, index, value]);
  return { elements, root: json.root };
}

describe("StreamedJson, lists inside an object", () => {
  const report = {
    reportFormat: "CTRF",
    results: {
      tool: { name: "jest", tests: [{ not: "a list on the way" }] },
      tests: [{ name: "a" }, { name: "b", suite: ["x", "}"] }],
      summary: { tests: 2, note: 'braces } ] and "tests": [' },
      extra: [1, 2, { tests: [3] }],
    },
    passes: [],
    tests: "at the top, not on a path",
  };

  it("streams the lists and parses everything else into the root, whatever the chunks", async () => {
    const text = JSON.stringify(report, null, 2);
    for (const size of [1, 3, 64, 1 << 16]) {
      const { elements, root } = await read(file(text, size), [["results", "tests"], ["passes"]]);
      expect(elements).toEqual([
        [0, 0, { name: "a" }],
        [0, 1, { name: "b", suite: ["x", "}"] }],
      ]);
      expect(root).toEqual({ ...report, results: { ...report.results, tests: [] } });
    }
  });

  it("has the values before a list in the root when the list's first element comes", async () => {
    const json = new StreamedJson(
      file('{"config": {"projects": [1, 2]}, "suites": [{"title": "s"}], "stats": {}}', 5),
      [["suites"]],
      NOT_OBJECT,
    );
    for await (const element of json.elements()) {
      expect(element.value).toEqual({ title: "s" });
      expect(json.root).toEqual({ config: { projects: [1, 2] }, suites: [] });
    }
    expect(json.root).toEqual({ config: { projects: [1, 2] }, suites: [], stats: {} });
  });

  it("keeps a value that is not a list where a list was expected, for the schema to refuse", async () => {
    const { elements, root } = await read(file('{"results": {"tests": {"a": 1}}}'), [
      ["results", "tests"],
    ]);
    expect(elements).toEqual([]);
    expect(root).toEqual({ results: { tests: { a: 1 } } });
    expect((await read(file('{"results": [1]}'), [["results", "tests"]])).root).toEqual({
      results: [1],
    });
  });

  it("names what is wrong in the objects on the way, and where", async () => {
    const lists = [["results", "tests"]];
    const cases: [string, string][] = [
      ["[]", `r.json: ${NOT_OBJECT}`],
      ['"text"', `r.json: ${NOT_OBJECT}`],
      ["log line\n{}", "r.json (line 1, column 1): invalid JSON: invalid symbol"],
      ['{"results" {}}', "r.json (line 1, column 12): invalid JSON: colon expected"],
      ['{"a": 1 "b": 2}', "r.json (line 1, column 9): invalid JSON: a comma or } expected"],
      ['{"a": 1,}', "r.json (line 1, column 9): invalid JSON: property name expected"],
      ["{a: 1}", "r.json (line 1, column 2): invalid JSON: property name expected"],
      ['{"a": }', "r.json (line 1, column 7): invalid JSON: a value expected"],
      ['{"a": tru}', "r.json (line 1, column 7): invalid JSON: invalid symbol"],
      ['{"a\\x": 1}', "r.json (line 1, column 2): invalid JSON: invalid escape character"],
      [
        '{\n "results": {\n  "tests": [1,]',
        "r.json (line 3, column 15): invalid JSON: a value expected",
      ],
      [
        '{"results": {"tests": []}',
        "r.json (line 1, column 26): invalid JSON: the file ends before the report does",
      ],
      [
        '{"results": {}} {}',
        "r.json (line 1, column 17): invalid JSON: unexpected text after the end of the report",
      ],
    ];
    for (const [text, message] of cases) {
      for (const size of [1, 1 << 16]) {
        await expect(read(file(text, size), lists), text).rejects.toThrow(message);
      }
    }
  });

  it("refuses __proto__ and constructor.prototype in the objects on the way too", async () => {
    const lists = [["results", "tests"]];
    for (const text of [
      '{"__proto__": {"polluted": true}, "results": {}}',
      '{"results": {"__proto__": {"tests": []}}}',
      '{"results": {"tests": [], "constructor": {"prototype": {"polluted": true}}}}',
    ]) {
      await expect(read(file(text), lists), text).rejects.toThrow(
        "r.json: JSON with __proto__ or constructor.prototype keys is refused",
      );
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("answers 413 for one value over the limit, naming where it starts", async () => {
    const huge = Buffer.alloc(MAX_JSON_VALUE_BYTES + 2, 0x61);
    huge[0] = 0x22; // a string of 128 MB and a byte, in quotes
    huge[huge.length - 1] = 0x22;
    const text = Buffer.concat([
      Buffer.from('{"results": {"tests": [\n  '),
      huge,
      Buffer.from("]}}"),
    ]);
    await expect(read(file(text), [["results", "tests"]])).rejects.toMatchObject({
      statusCode: 413,
      message: expect.stringMatching(
        /^r\.json \(line 2, column 3\): one value of this JSON report is over 128 MB\./,
      ),
    });
  });
});
