import { TextDecoder } from "node:util";
import { locate, ReportError } from "./types.js";

/*
 * The bytes of a JUnit file turned into text for the SAX parser, with the checks that must happen
 * before any XML is parsed: the encoding, and the refusal of DTDs. A DOCTYPE can only stand in the
 * prolog (before the root element), so the prolog is read whole first and nothing reaches the
 * parser until it is known to hold none: no entity, external DTD or parameter entity is ever seen
 * by an XML processor.
 */

/** Comments and processing instructions before the root element rarely exceed a few KB. */
export const MAX_PROLOG_CHARS = 1024 * 1024;

/** Enough bytes to hold a byte-order mark and the XML declaration with its encoding. */
const SNIFF_BYTES = 512;

const DOCTYPE = "<!DOCTYPE";

export type PrologScan =
  | { kind: "root"; name: string }
  | { kind: "doctype"; offset: number; name: string }
  | { kind: "other" }
  | { kind: "more" };

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/**
 * Walks the prolog (XML declaration, comments, processing instructions, whitespace) and says what
 * comes next: the root element and its name, a DOCTYPE, anything else (left to the XML parser to
 * judge), or "more" when the text ends before that is known and `final` is false.
 */
export function scanProlog(text: string, final: boolean): PrologScan {
  const more: PrologScan = final ? { kind: "other" } : { kind: "more" };
  let i = 0;
  for (;;) {
    while (i < text.length && isSpace(text.charCodeAt(i))) i++;
    if (i >= text.length) return more;
    if (text[i] !== "<") return { kind: "other" };
    const closer = text.startsWith("<?", i) ? "?>" : text.startsWith("<!--", i) ? "-->" : "";
    if (closer) {
      const end = text.indexOf(closer, i + 2);
      if (end < 0) return more;
      i = end + closer.length;
      continue;
    }
    const rest = text.slice(i, i + 256);
    // Case-insensitive on purpose: `<!doctype` is not well-formed XML, but no parser gets to say so.
    if (rest.length < DOCTYPE.length && DOCTYPE.startsWith(rest.toUpperCase())) return more;
    if (rest.slice(0, DOCTYPE.length).toUpperCase() === DOCTYPE) {
      const name = /^\s*([^\s[>]*)/.exec(rest.slice(DOCTYPE.length))?.[1] ?? "";
      return { kind: "doctype", offset: i, name };
    }
    const tag = /^<([^\s/>!?]+)([\s/>])?/.exec(rest);
    if (!tag?.[1]) return { kind: "other" };
    if (!tag[2] && !final) return { kind: "more" };
    return { kind: "root", name: tag[1] };
  }
}

/**
 * Chooses the decoder from the first bytes: a byte-order mark wins; otherwise the encoding the
 * XML declaration names (read as ASCII, which every declaration is); otherwise UTF-8. Invalid
 * UTF-8 sequences become U+FFFD, as in the JSON parsers.
 */
function decoderFor(fileName: string, head: Buffer): TextDecoder {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return new TextDecoder("utf-8");
  if (head[0] === 0xff && head[1] === 0xfe) return new TextDecoder("utf-16le");
  if (head[0] === 0xfe && head[1] === 0xff) return new TextDecoder("utf-16be");
  const declared = /^<\?xml[^>]*?\sencoding\s*=\s*["']([^"']*)["']/.exec(
    head.subarray(0, SNIFF_BYTES).toString("latin1"),
  )?.[1];
  if (!declared) return new TextDecoder("utf-8");
  if (/^utf-?16/i.test(declared)) {
    throw new ReportError(
      fileName,
      `the XML declaration says ${declared} but the file has no byte-order mark; save it as UTF-8`,
      { line: 1, column: 1 },
    );
  }
  try {
    return new TextDecoder(declared);
  } catch {
    throw new ReportError(
      fileName,
      `unsupported encoding "${declared}" in the XML declaration; save the report as UTF-8`,
      { line: 1, column: 1 },
    );
  }
}

/**
 * Feeds the bytes of a file in and hands text out for the XML parser, holding everything back
 * until the prolog has been checked.
 */
export class XmlInput {
  private decoder: TextDecoder | undefined;
  private sniffed: Buffer[] = [];
  private sniffedBytes = 0;
  private prolog: string | undefined = "";

  constructor(
    private readonly fileName: string,
    /** The root elements the format starts with, for the complaint when none comes. */
    private readonly roots = "<testsuites> or <testsuite>",
  ) {}

  /** Text ready for the parser from this chunk (possibly none while the prolog is incomplete). */
  push(chunk: Buffer): string {
    if (!this.decoder) {
      this.sniffed.push(chunk);
      this.sniffedBytes += chunk.length;
      if (this.sniffedBytes < SNIFF_BYTES) return "";
      return this.startDecoding(false);
    }
    return this.afterProlog(this.decoder.decode(chunk, { stream: true }), false);
  }

  /** The rest of the text at the end of the file. */
  end(): string {
    if (!this.decoder) return this.startDecoding(true);
    return this.afterProlog(this.decoder.decode(), true);
  }

  private startDecoding(final: boolean): string {
    const head = Buffer.concat(this.sniffed);
    this.sniffed = [];
    this.decoder = decoderFor(this.fileName, head);
    const text = this.decoder.decode(head, { stream: !final });
    return this.afterProlog(final ? text + this.decoder.decode() : text, final);
  }

  private afterProlog(text: string, final: boolean): string {
    if (this.prolog === undefined) return text;
    const prolog = this.prolog + text;
    const scan = scanProlog(prolog, final);
    if (scan.kind === "more") {
      if (prolog.length > MAX_PROLOG_CHARS) {
        throw new ReportError(
          this.fileName,
          `no root element in the first ${MAX_PROLOG_CHARS} characters; expected ${this.roots}`,
        );
      }
      this.prolog = prolog;
      return "";
    }
    if (scan.kind === "doctype") {
      throw new ReportError(
        this.fileName,
        "DOCTYPE declarations are not allowed: a DTD can read local files, fetch URLs or expand " +
          "entities without bound. Remove the <!DOCTYPE ...> line and upload again",
        locate(prolog, scan.offset),
      );
    }
    this.prolog = undefined;
    return prolog;
  }
}
