import { SaxesParser } from "saxes";
import { scanProlog, XmlInput } from "./junit-input.js";
import { ReportError, type ReportFile, type ReportLocation } from "./types.js";

/*
 * The XML reading every XML format but JUnit shares (TRX, NUnit, xUnit.net, TestNG): the file's
 * bytes through XmlInput (encoding, DTDs refused) into a SAX parser, and a format's reader told
 * of each element as it opens and closes, with the text of the elements it asked for. Results
 * leave as the reader pushes them, so memory holds the test being read, not the report.
 */

/** A report's text is kept up to this size per element (a stack trace, a test's output). */
export const MAX_XML_TEXT_CHARS = 1024 * 1024;

export type Attributes = Record<string, string>;

/** What a format's reader does with the elements of a report. */
export interface XmlReader<T> {
  /** Names of the elements whose text the reader wants at their close. */
  readonly textOf: ReadonlySet<string>;
  /** The root element's name: a report with another root is refused. */
  root(name: string, where: ReportLocation): void;
  open(name: string, attributes: Attributes, where: ReportLocation): void;
  /** `text` is the element's text (CDATA included) when its name is in `textOf`, else "". */
  close(name: string, text: string, where: ReportLocation): void;
  /** Results ready to leave (emptied by the caller). */
  readonly ready: T[];
  /** Set once the reader needs no more of the file: the reading stops there. */
  readonly finished?: boolean;
}

/** Strips saxes' "line:column: " prefix and final period: the location is given separately. */
function saxesMessage(error: Error): string {
  return error.message.replace(/^\d+:\d+: /, "").replace(/\.$/, "");
}

/**
 * The local name of an element: TRX puts its elements in a default namespace, and some writers
 * prefix them instead.
 */
const localName = (name: string) => name.slice(name.indexOf(":") + 1);

/** Reads `file` through `reader`, yielding what it pushes to `ready` as the file streams in. */
export async function* streamXml<T>(
  file: ReportFile,
  reader: XmlReader<T>,
  roots: string,
): AsyncGenerator<T> {
  const sax = new SaxesParser({ xmlns: false, position: true });
  const where = () => ({ line: sax.line, column: sax.column });
  // One buffer per open element of `textOf`; text elsewhere is not collected at all.
  const texts: string[][] = [];
  const sizes: number[] = [];
  const names: string[] = [];
  const onText = (text: string) => {
    const top = texts.length - 1;
    if (top < 0 || sizes[top]! >= MAX_XML_TEXT_CHARS) return;
    texts[top]!.push(text);
    sizes[top]! += text.length;
  };
  sax.on("error", (error) => {
    throw new ReportError(file.name, `malformed XML: ${saxesMessage(error)}`, where());
  });
  sax.on("doctype", () => {
    throw new ReportError(file.name, "DOCTYPE declarations are not allowed", where());
  });
  sax.on("opentag", (tag) => {
    const name = localName(tag.name);
    if (names.length === 0) reader.root(name, where());
    names.push(name);
    if (reader.textOf.has(name)) {
      // While no text is wanted saxes does not build it (the whitespace between elements).
      if (texts.length === 0) sax.on("text", onText);
      texts.push([]);
      sizes.push(0);
    }
    reader.open(name, tag.attributes as Attributes, where());
  });
  sax.on("closetag", () => {
    const name = names.pop()!;
    let text = "";
    if (reader.textOf.has(name)) {
      text = texts.pop()!.join("").slice(0, MAX_XML_TEXT_CHARS);
      sizes.pop();
      if (texts.length === 0) sax.off("text");
    }
    reader.close(name, text, where());
  });
  sax.on("cdata", onText);

  const input = new XmlInput(file.name, roots);
  let empty = true;
  for await (const chunk of file.open()) {
    const text = input.push(chunk as Buffer);
    empty &&= !text.trim();
    sax.write(text);
    for (const result of reader.ready.splice(0)) yield result;
    if (reader.finished) return;
  }
  const rest = input.end();
  if (empty && !rest.trim()) throw new ReportError(file.name, "the file is empty");
  sax.write(rest);
  sax.close();
  for (const result of reader.ready.splice(0)) yield result;
}

/** Reads `file` through a reader that keeps what it reads (yields nothing). */
export async function readXml(file: ReportFile, reader: XmlReader<never>, roots: string) {
  const reading = streamXml(file, reader, roots);
  while (!(await reading.next()).done);
}

/** Seconds as a report writes them ("0.25"), in milliseconds; 0 when absent or not a number. */
export function secondsToMs(value: string | undefined): number {
  const n = value === undefined ? Number.NaN : Number(value);
  return Number.isFinite(n) && n > 0 ? Math.round(n * 1_000_000) / 1000 : 0;
}

/** Text as a result field: trimmed, undefined when blank. */
export function textField(text: string | undefined): string | undefined {
  const trimmed = text?.trim();
  return trimmed ? trimmed : undefined;
}

/** The local name of the root element a report's head starts with, if the head shows it. */
export function rootOf(head: string): string | undefined {
  const scan = scanProlog(head.replace(/\0/g, "").replace(/^[\uFEFF\uFFFE\uFFFD]+/, ""), true);
  return scan.kind === "root" ? localName(scan.name) : undefined;
}
