import type { ResultInput } from "@assay/core";
import { SaxesParser } from "saxes";
import { JunitBuilder } from "./junit-builder.js";
import { XmlInput, scanProlog } from "./junit-input.js";
import { totalsWarning } from "./report-totals.js";
import {
  ReportError,
  type ParseOptions,
  type ReportFile,
  type ResultParser,
  type Warn,
} from "./types.js";

/*
 * JUnit XML (Ant, Maven Surefire, jest-junit, mocha-junit-reporter, node:test, WebdriverIO,
 * pytest, ...), read as a stream with a SAX parser: no document tree is built, and results leave
 * as their testcases (and suites) close. DTDs are refused before parsing (junit-input.ts); saxes
 * expands only the five predefined entities and character references, and reports any other
 * entity as undefined.
 */

const ROOTS = new Set(["testsuites", "testsuite"]);

/**
 * True when the first element of the file (after the XML declaration, comments and processing
 * instructions) is <testsuites> or <testsuite>, or a DOCTYPE names one of them (so that the
 * parser, not format detection, explains why the file is refused).
 */
export function detectJunit(head: string, _fileName: string): boolean {
  const scan = prologOf(head);
  if (scan.kind === "root" || scan.kind === "doctype") return ROOTS.has(scan.name);
  return false;
}

/**
 * True when an .xml file that no format claimed starts with a DOCTYPE: most likely a JUnit report
 * whose DOCTYPE names another root (or an attack), which the no-report answer then explains.
 */
export function xmlWithDoctype(head: string, fileName: string): boolean {
  return fileName.toLowerCase().endsWith(".xml") && prologOf(head).kind === "doctype";
}

function prologOf(head: string) {
  // UTF-16 text read as UTF-8 has a NUL after each ASCII character and a mangled byte-order mark.
  return scanProlog(head.replace(/\0/g, "").replace(/^[\uFEFF\uFFFE\uFFFD]+/, ""), true);
}

/** Strips saxes' "line:column: " prefix and final period: the location is given separately. */
function saxesMessage(error: Error): string {
  return error.message.replace(/^\d+:\d+: /, "").replace(/\.$/, "");
}

async function* parse(file: ReportFile, options: ParseOptions): AsyncGenerator<ResultInput> {
  const ready: ResultInput[] = [];
  const sax = new SaxesParser({ xmlns: false, position: true });
  const where = () => ({ line: sax.line, column: sax.column });
  const onText = (text: string) => builder.text(text);
  // Text is wanted only inside the few elements the builder reads it from; while no text handler
  // is set, saxes does not build the text in between (whitespace, mostly) at all.
  const builder = new JunitBuilder(
    file.name,
    where,
    (result) => ready.push(result),
    (wanted) => (wanted ? sax.on("text", onText) : sax.off("text")),
    options.junitRetries,
  );
  sax.on("error", (error) => {
    throw new ReportError(file.name, `malformed XML: ${saxesMessage(error)}`, where());
  });
  // Unreachable while XmlInput refuses every prolog with a DOCTYPE; kept as a second lock.
  sax.on("doctype", () => {
    throw new ReportError(file.name, "DOCTYPE declarations are not allowed", where());
  });
  sax.on("opentag", (tag) => builder.open(tag.name, tag.attributes));
  sax.on("closetag", () => builder.close());
  sax.on("cdata", onText);

  const input = new XmlInput(file.name);
  let empty = true;
  for await (const chunk of file.open()) {
    const text = input.push(chunk as Buffer);
    empty &&= !text.trim();
    sax.write(text);
    // A loop, not yield*: delegating to the array's iterator costs an extra await per result.
    for (const result of ready.splice(0)) yield result;
  }
  const rest = input.end();
  if (empty && !rest.trim()) throw new ReportError(file.name, "the file is empty");
  sax.write(rest);
  sax.close();
  for (const result of ready.splice(0)) yield result;
  if (options.warn) warnAbout(file.name, builder, options.warn);
}

/** What the file said that was stored otherwise than written (see Warn). */
function warnAbout(fileName: string, builder: JunitBuilder, warn: Warn): void {
  const { unnamed } = builder;
  if (unnamed.length > 0) {
    const names = unnamed.slice(0, 3).map((name) => `'${name}'`);
    const more = unnamed.length > 3 ? ` and ${unnamed.length - 3} more` : "";
    warn(
      `${fileName}: ${unnamed.length === 1 ? "a <testcase> has" : `${unnamed.length} <testcase> elements have`} ` +
        `neither a name nor a classname; stored as ${names.join(", ")}${more}.`,
    );
  }
  const totals = totalsWarning(fileName, builder.header.declared(), builder.listed, "test cases");
  if (totals) warn(totals);
}

/**
 * Parses a JUnit XML report into one result per attempt: suite_path from the nested <testsuite>
 * names (plus the classname where it adds a level), failure vs error kept in failure_type,
 * Surefire's flaky and rerun elements as earlier attempts, properties and output conventions
 * (`[[ATTACHMENT|path]]`) read. Every testcase is a test of its own unless `junitRetries` makes
 * same-named ones of a suite its attempts; one without a name is named after its file or suite.
 * Results are counted from the testcases; totals in attributes that disagree with them are a
 * warning (report-totals.ts). Malformed XML, a DOCTYPE or a root other than <testsuites>/<testsuite> is a
 * ReportError with the line and column.
 */
export const parseJunit: ResultParser = (file, _files, options = {}) => parse(file, options);
