import { Readable } from "node:stream";
import { countOf, type Totals } from "./report-totals.js";
import { ReportError, type ReportFile } from "./types.js";
import { readXml, type Attributes, type XmlReader } from "./xml-stream.js";

/*
 * A TRX's <TestDefinitions> (each test's class, categories and owner) and its <ResultSummary>
 * counters, read before the results: dotnet writes the definitions after them. The definitions
 * are found by a byte search, and only from there is the XML parsed, so the results are parsed
 * once (by the results' reading), not twice. When the search cannot be trusted (a UTF-16 file,
 * the name inside a CDATA section, a prefixed root), the whole file is read instead.
 */

export interface Definition {
  className?: string;
  storage?: string;
  tags: string[];
  owner?: string;
}

export interface TrxDefinitions {
  /** Each test id's definition: tests of one class mostly share one (memory: an index a test). */
  byId: Map<string, number>;
  shapes: Definition[];
  /** The counters, when this reading got to the file's end: the results' reading may stop early. */
  declared?: Totals;
}

/**
 * A copy of an attribute's value. saxes hands out substrings of the text it was given, and V8
 * keeps a substring as a view of that text: kept as a map key, each would hold its whole chunk
 * of the file in memory.
 */
const own = (text: string) => Buffer.from(text, "utf8").toString("utf8");

const baseName = (path: string) => path.replace(/\\/g, "/").split("/").pop() || path;

class DefinitionReader implements XmlReader<never> {
  readonly textOf = new Set<string>();
  readonly ready: never[] = [];
  readonly byId = new Map<string, number>();
  readonly shapes: Definition[] = [];
  private readonly shapeIndex = new Map<string, number>();
  private id: string | undefined;
  finished = false;
  declared: Totals | undefined;
  private current: Definition | undefined;
  private inSummary = false;

  constructor(
    private readonly fileName: string,
    /** Read from the definitions on: stop where results start, else read to the end. */
    private readonly fromDefinitions: boolean,
  ) {}

  root(name: string, where: { line?: number; column?: number }): void {
    if (name !== "TestRun") {
      throw new ReportError(
        this.fileName,
        `not a TRX report: the root element is <${name}>, expected <TestRun>`,
        where,
      );
    }
  }

  open(name: string, a: Attributes): void {
    if (name === "UnitTest" && a.id) {
      this.id = own(a.id);
      this.current = { tags: [], ...(a.storage && { storage: baseName(a.storage) }) };
    } else if (name === "Results" && this.fromDefinitions) this.finished = true;
    else if (name === "ResultSummary") this.inSummary = true;
    else if (name === "Counters" && this.inSummary) this.declared = declaredTotals(a);
    else if (!this.current) return;
    else if (name === "TestMethod" && a.className) {
      this.current.className = a.className;
    } else if (name === "TestCategoryItem" && a.TestCategory) {
      this.current.tags.push(a.TestCategory);
    } else if (name === "Owner" && a.name) this.current.owner = a.name;
  }

  close(name: string): void {
    if (name === "UnitTest" && this.current && this.id) {
      const { className = "", storage = "", tags, owner = "" } = this.current;
      const key = [className, storage, owner, ...tags].join("\u0000");
      let index = this.shapeIndex.get(key);
      if (index === undefined) {
        const { current } = this;
        index =
          this.shapes.push({
            tags: current.tags.map(own),
            ...(current.className && { className: own(current.className) }),
            ...(current.storage && { storage: own(current.storage) }),
            ...(current.owner && { owner: own(current.owner) }),
          }) - 1;
        this.shapeIndex.set(own(key), index);
      }
      this.byId.set(this.id, index);
      this.current = undefined;
    } else if (name === "ResultSummary") this.inSummary = false;
    // Read from the start: the definitions are all read, the results' reading does the rest.
    else if (name === "TestDefinitions" && !this.fromDefinitions) this.finished = true;
  }
}

/** vstest's counters as Assay's statuses count them (see trx.ts's OUTCOMES). */
export function declaredTotals(a: Attributes): Totals {
  const sum = (...names: string[]) => {
    const values = names.map((n) => countOf(a[n]));
    if (values.every((v) => v === undefined)) return undefined;
    return values.reduce<number>((s, v) => s + (v ?? 0), 0);
  };
  return {
    tests: countOf(a.total),
    passed: sum("passed", "passedButRunAborted", "completed", "warning"),
    failed: sum("failed", "error", "timeout", "aborted", "disconnected"),
    skipped: sum("notExecuted", "inconclusive", "notRunnable", "pending", "inProgress"),
  };
}

const NAME = Buffer.from("TestDefinitions");
const OVERLAP = 256;

/** Where `<TestDefinitions` (or `<prefix:TestDefinitions`) starts, by a search of the bytes. */
async function definitionsOffset(file: ReportFile): Promise<number | undefined> {
  let base = 0;
  let tail = Buffer.alloc(0);
  let head = true;
  for await (const chunk of file.open()) {
    const bytes = Buffer.concat([tail, chunk as Buffer]);
    // UTF-16 (a byte-order mark): the name is not these bytes.
    if (head && (bytes[0] === 0xff || bytes[0] === 0xfe)) return undefined;
    head = false;
    for (let at = bytes.indexOf(NAME); at >= 0; at = bytes.indexOf(NAME, at + 1)) {
      const open = bytes.lastIndexOf(0x3c, at);
      // "<TestDefinitions" or "<t:TestDefinitions": an open tag, not text or a closing tag.
      if (open >= 0 && /^<([A-Za-z_][\w.-]*:)?$/.test(bytes.toString("latin1", open, at))) {
        return base - tail.length + open;
      }
    }
    tail = bytes.subarray(Math.max(0, bytes.length - OVERLAP));
    base += (chunk as Buffer).length;
  }
  return undefined;
}

/** The file from `offset` on, inside a <TestRun> of its own (the real one closes it). */
function fromOffset(file: ReportFile, offset: number): ReportFile {
  return {
    name: file.name,
    size: file.size - offset + 9,
    open: () =>
      Readable.from(
        (async function* () {
          yield Buffer.from("<TestRun>");
          let skipped = 0;
          for await (const chunk of file.open()) {
            const bytes = chunk as Buffer;
            if (skipped + bytes.length <= offset) {
              skipped += bytes.length;
              continue;
            }
            yield skipped < offset ? bytes.subarray(offset - skipped) : bytes;
            skipped = offset;
          }
        })(),
      ),
  };
}

/** The definitions by test id, and the counters if the reading got to them. */
export async function readDefinitions(file: ReportFile): Promise<TrxDefinitions> {
  const offset = await definitionsOffset(file);
  if (offset !== undefined) {
    const reader = new DefinitionReader(file.name, true);
    try {
      await readXml(fromOffset(file, offset), reader, "<TestRun>");
      return {
        byId: reader.byId,
        shapes: reader.shapes,
        ...(!reader.finished && { declared: reader.declared ?? {} }),
      };
    } catch (error) {
      if (!(error instanceof ReportError)) throw error;
      // The search found something else (see above): read the whole file, which also names
      // the line of a real problem.
    }
  }
  const reader = new DefinitionReader(file.name, false);
  await readXml(file, reader, "<TestRun>");
  return { byId: reader.byId, shapes: reader.shapes };
}
