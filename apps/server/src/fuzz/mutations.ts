import fc from "fast-check";

/**
 * Mutations of a real report's bytes (security-and-reliability.md sections 2.1 to 2.3): each is
 * a named function so a failing case prints what was done to the fixture.
 */
export interface Mutation {
  name: string;
  apply(bytes: Buffer): Buffer;
  /** The mutation changes no test: a parse must give the fixture's own counts. */
  neutral?: boolean;
}

const named = (name: string, apply: (bytes: Buffer) => Buffer, neutral = false): Mutation => ({
  name,
  apply,
  neutral,
});

/** Values a report should never hold, in the places numbers, dates and strings go. */
const ABSURD_VALUES = [
  "1e400",
  "-1e400",
  "-1",
  "-0",
  "NaN",
  "Infinity",
  "1,5",
  "9007199254740993",
  "2147483648",
  "9".repeat(400),
  "0000-00-00",
  "+275760-09-13T00:00:00.001Z",
  "99999-12-31T23:59:59Z",
  "1e-400",
] as const;

/** Byte sequences that break encodings and text columns. */
const HOSTILE_BYTES = [
  Buffer.from([0]),
  Buffer.from([0xc3]),
  Buffer.from([0xc0, 0xaf]),
  Buffer.from([0xed, 0xa0, 0x80]),
  Buffer.from("\uFFFE\uFFFF", "utf8"),
  Buffer.from("\\u0000"),
  Buffer.from("\\ud800"),
  Buffer.from("&#0;"),
  Buffer.from("]]>"),
  Buffer.from('"'),
  Buffer.from("<"),
  Buffer.from("\r"),
] as const;

const at = (bytes: Buffer, fraction: number) => Math.floor(fraction * bytes.length);
const splice = (bytes: Buffer, index: number, removed: number, inserted: Buffer) =>
  Buffer.concat([bytes.subarray(0, index), inserted, bytes.subarray(index + removed)]);

/** The positions of every match of `pattern` in the text, to pick one by a fraction. */
function matchAt(text: string, pattern: RegExp, fraction: number): RegExpExecArray | undefined {
  const matches = [...text.matchAll(new RegExp(pattern.source, "g"))];
  return matches[Math.min(matches.length - 1, Math.floor(fraction * matches.length))];
}

const fraction = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });

const truncation = fraction.map((f) => named(`truncate at ${f}`, (b) => b.subarray(0, at(b, f))));

const byteFlips = fc
  .array(fc.tuple(fraction, fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 8 })
  .map((flips) =>
    named(`flip bytes ${JSON.stringify(flips)}`, (b) => {
      const copy = Buffer.from(b);
      for (const [f, mask] of flips) if (copy.length) copy[at(copy, f)]! ^= mask;
      return copy;
    }),
  );

const hostileInsert = fc
  .tuple(fraction, fc.constantFrom(...HOSTILE_BYTES))
  .map(([f, inserted]) =>
    named(`insert ${JSON.stringify(inserted.toString("latin1"))} at ${f}`, (b) =>
      splice(b, at(b, f), 0, inserted),
    ),
  );

/** Strings up to 10 MB inside a value (rarely: they are slow to parse hundreds of times). */
const largeString = fc
  .tuple(fraction, fc.constantFrom(1_000, 100_000, 1_000_000, 1_000_000, 10_000_000))
  .map(([f, size]) =>
    named(`${size}-character string at the ${f} string value`, (b) => {
      const text = b.toString("latin1");
      const found = matchAt(text, /"[^"\\\n<>]*"/, f);
      const index = found ? found.index + 1 : at(b, f);
      return splice(b, index, 0, Buffer.alloc(size, "x"));
    }),
  );

const deepNesting = fc
  .tuple(fraction, fc.constantFrom(100, 1_000, 100_000), fc.constantFrom("[", '{"a":', "<a>"))
  .map(([f, depth, opener]) =>
    named(`${depth} nested ${opener} at ${f}`, (b) => {
      const closer = opener === "[" ? "]" : opener === "<a>" ? "</a>" : "}";
      const text = b.toString("latin1");
      const found = matchAt(text, opener === "<a>" ? />/ : /:\s*/, f);
      const index = found ? found.index + found[0].length : at(b, f);
      const value = opener.repeat(depth) + (opener === "<a>" ? "" : "1") + closer.repeat(depth);
      return splice(b, index, 0, Buffer.from(value));
    }),
  );

const absurdNumber = fc.tuple(fraction, fc.constantFrom(...ABSURD_VALUES)).map(([f, value]) =>
  named(`number at ${f} becomes ${value.slice(0, 20)}`, (b) => {
    const found = matchAt(b.toString("latin1"), /\d[\d.:TZ-]*/, f);
    return found ? splice(b, found.index, found[0].length, Buffer.from(value)) : b;
  }),
);

/** A JSON key written twice, the first time with a value of the wrong type. */
const duplicateKey = fc
  .tuple(fraction, fc.constantFrom("null", "[]", "{}", "true", '"x"', "1e400", "-1", '["passed"]'))
  .map(([f, value]) =>
    named(`duplicate key at ${f} with ${value} first`, (b) => {
      const found = matchAt(b.toString("latin1"), /"[A-Za-z_]+"\s*:/, f);
      return found ? splice(b, found.index, 0, Buffer.from(`${found[0]} ${value}, `)) : b;
    }),
  );

/** One JSON value replaced by another type (parsed and written back, so the rest stays valid). */
const wrongType = fc
  .tuple(fraction, fc.constantFrom<unknown>(null, [], {}, true, "100", -1, 1e300, [null], { a: 1 }))
  .map(([f, value]) =>
    named(`value ${f} becomes ${JSON.stringify(value)}`, (b) => {
      let document: unknown;
      try {
        document = JSON.parse(b.toString("utf8"));
      } catch {
        return b;
      }
      // A stack, not recursion: an earlier mutation may have nested the document 100,000 deep.
      const slots: [Record<string, unknown>, string][] = [];
      const pending: unknown[] = [document];
      while (pending.length > 0) {
        const node = pending.pop();
        if (!node || typeof node !== "object") continue;
        for (const [key, child] of Object.entries(node)) {
          slots.push([node as Record<string, unknown>, key]);
          pending.push(child);
        }
      }
      const slot = slots[Math.floor(f * slots.length)];
      if (slot) slot[0][slot[1]] = value;
      return Buffer.from(JSON.stringify(document));
    }),
  );

const encodings = fc.constantFrom(
  named("UTF-8 BOM", (b) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b]), true),
  named(
    "CRLF line ends",
    (b) => Buffer.from(b.toString("latin1").replace(/\n/g, "\r\n"), "latin1"),
    true,
  ),
  named("UTF-16LE with BOM", (b) => Buffer.from(`\uFEFF${b.toString("utf8")}`, "utf16le")),
  named("UTF-16BE with BOM", (b) => Buffer.from(`\uFEFF${b.toString("utf8")}`, "utf16le").swap16()),
  named("empty", () => Buffer.alloc(0)),
  named("whitespace only", () => Buffer.from(" \n\t\r\n")),
  named("NUL bytes only", () => Buffer.alloc(64)),
);

/** One to three mutations of a fixture, applied in order. */
export const mutations: fc.Arbitrary<Mutation[]> = fc.array(
  fc.oneof(
    { arbitrary: truncation, weight: 4 },
    { arbitrary: byteFlips, weight: 4 },
    { arbitrary: hostileInsert, weight: 3 },
    { arbitrary: largeString, weight: 1 },
    { arbitrary: deepNesting, weight: 2 },
    { arbitrary: absurdNumber, weight: 3 },
    { arbitrary: duplicateKey, weight: 2 },
    { arbitrary: wrongType, weight: 3 },
    { arbitrary: encodings, weight: 2 },
  ),
  { minLength: 1, maxLength: 3 },
);

export const applyAll = (bytes: Buffer, steps: readonly Mutation[]) =>
  steps.reduce((current, step) => step.apply(current), bytes);
