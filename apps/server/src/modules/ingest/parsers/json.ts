import { parse as parseLenient, printParseErrorCode, type ParseError } from "jsonc-parser";
import sjson from "secure-json-parse";
import { locate, ReportError } from "./types.js";

/** Deeper than any real report; bounds the work a hostile file can cause. */
export const MAX_JSON_DEPTH = 64;

/** Refuses nesting deeper than the limit before parsing, in one pass that skips strings. */
function checkDepth(file: string, text: string, maxDepth: number): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > maxDepth) {
        throw new ReportError(
          file,
          `JSON is nested deeper than ${maxDepth} levels`,
          locate(text, i),
        );
      }
    } else if (c === 125 || c === 93) depth--;
  }
}

/**
 * Parses JSON text of a report safely: `__proto__` and `constructor.prototype` keys are refused
 * (they could pollute objects downstream), nesting is bounded, and a syntax error names the line
 * and column. Reports are read value by value as they stream in (json-stream.ts).
 */
export function parseJsonText(name: string, text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  checkDepth(name, text, maxDepth);
  try {
    return sjson.parse(text.replace(/^\uFEFF/, ""), undefined, {
      protoAction: "error",
      constructorAction: "error",
    });
  } catch (error) {
    const message = (error as Error).message;
    if (/prototype|__proto__|constructor/i.test(message)) {
      throw new ReportError(name, "JSON with __proto__ or constructor.prototype keys is refused");
    }
    throw syntaxError(name, text, message);
  }
}

/**
 * V8's messages carry a position only sometimes, so the position of the first error comes from
 * jsonc-parser, run strictly (no comments, no trailing commas), only once parsing has failed.
 */
function syntaxError(name: string, text: string, fallback: string): ReportError {
  const errors: ParseError[] = [];
  parseLenient(text, errors, { disallowComments: true, allowTrailingComma: false });
  const first = errors[0];
  if (!first) return new ReportError(name, `invalid JSON: ${fallback}`);
  return new ReportError(
    name,
    // "CommaExpected" -> "comma expected"
    `invalid JSON: ${printParseErrorCode(first.error)
      .replace(/([a-z])([A-Z])/g, "$1 $2")
      .toLowerCase()}`,
    locate(text, first.offset),
  );
}

/** "$.a[2].b": the JSON path of a value, for error messages. */
export function jsonPath(segments: readonly (string | number)[]): string {
  return segments.reduce<string>(
    (acc, s) => (typeof s === "number" ? `${acc}[${s}]` : `${acc}.${s}`),
    "$",
  );
}
