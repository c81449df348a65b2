import { createServer, type Socket } from "node:net";
import { Readable } from "node:stream";
import type { ResultInput } from "@assay/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseJunit } from "./junit.js";
import { MAX_DEPTH } from "./junit-builder.js";
import { fixtureText, textFile, uploadOf } from "./test-files.js";
import type { ReportFile } from "./types.js";

/*
 * Malformed and hostile JUnit files (security-and-reliability.md section 2.1): each is refused
 * with a ReportError naming the file, the line and column, and what is wrong.
 */

async function parse(file: ReportFile): Promise<ResultInput[]> {
  const results: ResultInput[] = [];
  for await (const result of parseJunit(file, uploadOf())) results.push(result);
  return results;
}

const xml = (text: string | Buffer) => parse(textFile("report.xml", text));

/** The same bytes, one byte per chunk: every boundary the stream can cut at. */
function byteByByte(bytes: Buffer): ReportFile {
  const chunks = [...bytes].map((b) => Buffer.from([b]));
  return { name: "report.xml", size: bytes.length, open: () => Readable.from(chunks) };
}

const DTD_REFUSED =
  "DOCTYPE declarations are not allowed: a DTD can read local files, fetch URLs or expand " +
  "entities without bound. Remove the <!DOCTYPE ...> line and upload again";

describe("parseJunit refuses DTDs before parsing", () => {
  let connections = 0;
  const sockets: Socket[] = [];
  const server = createServer((socket) => {
    connections++;
    sockets.push(socket);
  });
  let port = 0;

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it("refuses an external entity (XXE) without reading the file", async () => {
    await expect(
      xml(
        '<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><testsuite name="&x;"/>',
      ),
    ).rejects.toThrow(`report.xml (line 2, column 1): ${DTD_REFUSED}`);
  });

  it("refuses external DTDs and parameter entities without connecting", async () => {
    const url = `http://127.0.0.1:${port}`;
    await expect(
      xml(`<!DOCTYPE testsuite SYSTEM "${url}/x.dtd"><testsuite name="s"/>`),
    ).rejects.toThrow(`report.xml (line 1, column 1): ${DTD_REFUSED}`);
    await expect(
      xml(`<!DOCTYPE r [<!ENTITY % p SYSTEM "${url}/p.dtd"> %p;]><testsuite name="s"/>`),
    ).rejects.toThrow(DTD_REFUSED);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(connections).toBe(0);
  });

  it("refuses billion laughs and a quadratic blow-up", async () => {
    const levels = ['<!ENTITY lol0 "lol">'];
    for (let i = 1; i <= 10; i++) {
      levels.push(`<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`);
    }
    await expect(
      xml(
        `<?xml version="1.0"?>\n<!DOCTYPE lolz [\n${levels.join("\n")}\n]>\n<testsuite name="&lol10;"/>`,
      ),
    ).rejects.toThrow(`report.xml (line 2, column 1): ${DTD_REFUSED}`);
    const big = "x".repeat(50_000);
    await expect(
      xml(
        `<!DOCTYPE r [<!ENTITY a "${big}">]><testsuite name="s"><testcase name="t"><system-out>${"&a;".repeat(100_000)}</system-out></testcase></testsuite>`,
      ),
    ).rejects.toThrow(DTD_REFUSED);
  });

  it("finds the DOCTYPE after a BOM, comments, processing instructions and whitespace", async () => {
    await expect(xml('\uFEFF<!DOCTYPE r [<!ENTITY x "y">]><testsuite/>')).rejects.toThrow(
      `report.xml (line 1, column 1): ${DTD_REFUSED}`,
    );
    await expect(
      xml('<?xml version="1.0"?>\n<!-- generated -->\n<?pi x?>\n\n   <!doctype r><testsuite/>'),
    ).rejects.toThrow(`report.xml (line 5, column 4): ${DTD_REFUSED}`);
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('<!-- c --><!DOCTYPE r [<!ENTITY x "y">]><testsuite/>', "utf16le"),
    ]);
    await expect(xml(utf16)).rejects.toThrow(`report.xml (line 1, column 11): ${DTD_REFUSED}`);
  });

  it("finds a DOCTYPE cut across chunks at any byte", async () => {
    const bytes = Buffer.from('<?xml version="1.0"?><!-- a --><!DOCTYPE r><testsuite/>');
    await expect(parse(byteByByte(bytes))).rejects.toThrow(
      `report.xml (line 1, column 32): ${DTD_REFUSED}`,
    );
  });

  it("treats XInclude and schema locations as data", async () => {
    const results = await xml(
      `<testsuite xmlns:xi="http://www.w3.org/2001/XInclude" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://127.0.0.1:${port}/s.xsd" name="s"><xi:include href="file:///etc/passwd"/><testcase name="t"/></testsuite>`,
    );
    expect(results.map((r) => r.name)).toEqual(["t"]);
    expect(connections).toBe(0);
  });
});

describe("parseJunit refuses malformed XML with its position", () => {
  it("names an unclosed tag", async () => {
    await expect(xml('<testsuite name="s">\n  <testcase name="a">\n</testsuite>')).rejects.toThrow(
      "report.xml (line 3, column 12): malformed XML: unexpected close tag",
    );
  });

  it("names a file cut off in the middle", async () => {
    const text = fixtureText("junit", "mocha-junit.xml");
    const cut = text.slice(0, text.indexOf("<testcase", 600) + 12);
    const lines = cut.split("\n");
    // Reported where the text ends, with the innermost element left open.
    await expect(xml(cut)).rejects.toThrow(
      `report.xml (line ${lines.length}, column ${lines.at(-1)?.length}): malformed XML: unclosed tag: testsuite`,
    );
  });

  it("refuses garbage, an empty file and a lone declaration", async () => {
    await expect(xml("this is not xml")).rejects.toThrow(
      "report.xml (line 1, column 15): malformed XML: text data outside of root node",
    );
    await expect(xml("")).rejects.toThrow("report.xml: the file is empty");
    await expect(xml("  \n ")).rejects.toThrow("report.xml: the file is empty");
    await expect(xml('<?xml version="1.0"?>')).rejects.toThrow(
      "report.xml (line 1, column 21): malformed XML: document must contain a root element",
    );
  });

  it("refuses a root element other than testsuites/testsuite", async () => {
    await expect(xml('<?xml version="1.0"?>\n<html><body/></html>')).rejects.toThrow(
      "report.xml (line 2, column 6): expected a JUnit XML report with <testsuites> or <testsuite> as its root element, found <html>",
    );
  });

  it("refuses undefined entities, NUL and invalid character references", async () => {
    await expect(xml('<testsuite name="&foo;"/>')).rejects.toThrow(
      "report.xml (line 1, column 22): malformed XML: undefined entity",
    );
    await expect(xml("<testsuite>\0</testsuite>")).rejects.toThrow(
      "report.xml (line 1, column 12): malformed XML: disallowed character",
    );
    await expect(xml("<testsuite>&#0;</testsuite>")).rejects.toThrow(
      "report.xml (line 1, column 15): malformed XML: malformed character entity",
    );
  });

  it("refuses nesting deeper than the limit without overflowing the stack", async () => {
    const depth = 100_000;
    await expect(
      xml(`<testsuite name="s">${"<a>".repeat(depth)}${"</a>".repeat(depth)}</testsuite>`),
    ).rejects.toThrow(
      `report.xml (line 1, column ${20 + 3 * MAX_DEPTH}): elements are nested deeper than ${MAX_DEPTH} levels`,
    );
  });

  it("keeps the work linear on hostile output and failure texts", async () => {
    const unclosed = "[[PROPERTY|x]]\n".repeat(50_000);
    const blank = "\n".repeat(1_000_000);
    const [result] = await xml(
      `<testsuite name="s"><testcase name="t"><failure>${blank}x</failure><system-out>${unclosed}</system-out></testcase></testsuite>`,
    );
    expect(result).toMatchObject({ status: "failed", error_message: "x" });
  });
});

describe("parseJunit encodings and hostile names", () => {
  const doc = '<testsuite name="s"><testcase name="café"/></testsuite>';

  it("reads UTF-8 with a BOM and UTF-16 with either byte order", async () => {
    const be = Buffer.from(`\uFEFF${doc}`, "utf16le").swap16();
    for (const bytes of [Buffer.from(`\uFEFF${doc}`), Buffer.from(`\uFEFF${doc}`, "utf16le"), be]) {
      expect((await xml(bytes)).map((r) => r.name)).toEqual(["café"]);
    }
  });

  it("decodes per the declared encoding, and refuses ones it cannot", async () => {
    const latin1 = Buffer.from(`<?xml version="1.0" encoding="ISO-8859-1"?>${doc}`, "latin1");
    expect((await xml(latin1)).map((r) => r.name)).toEqual(["café"]);
    await expect(xml(`<?xml version="1.0" encoding="x-klingon"?>${doc}`)).rejects.toThrow(
      'report.xml (line 1, column 1): unsupported encoding "x-klingon" in the XML declaration; save the report as UTF-8',
    );
    await expect(xml(`<?xml version="1.0" encoding="UTF-16"?>${doc}`)).rejects.toThrow(
      "report.xml (line 1, column 1): the XML declaration says UTF-16 but the file has no byte-order mark; save it as UTF-8",
    );
  });

  it("replaces invalid UTF-8 with U+FFFD, as the JSON parsers do", async () => {
    const bytes = Buffer.concat([
      Buffer.from('<testsuite name="s"><testcase name="a'),
      Buffer.from([0xc3, 0x28, 0xc0, 0xaf]),
      Buffer.from('"/></testsuite>'),
    ]);
    expect((await xml(bytes)).map((r) => r.name)).toEqual(["a\uFFFD(\uFFFD\uFFFD"]);
  });

  it("keeps __proto__ names as data and leaves Object.prototype alone", async () => {
    const before = Object.getOwnPropertyNames(Object.prototype);
    const [result] = await xml(
      '<testsuite __proto__="x" constructor="y" name="s"><testcase name="t"><properties><property name="__proto__" value="polluted"/><property name="constructor" value="c"/></properties><__proto__><polluted>1</polluted></__proto__></testcase></testsuite>',
    );
    expect(Object.getOwnPropertyNames(Object.prototype)).toEqual(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(result?.properties)).toBe(Object.prototype);
    expect(Object.entries(result?.properties ?? {})).toEqual([
      ["__proto__", "polluted"],
      ["constructor", "c"],
    ]);
    expect(result?.chrome_version).toBeUndefined();
  });
});
