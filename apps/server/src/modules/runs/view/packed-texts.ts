/*
 * A column of per-result texts of a run view (test_run_test_id, name, title, scenario, error,
 * screenshot) kept as a few long strings, each the texts of CHUNK results joined, and where
 * each text ends in its chunk. One string per result made the two views the write bench keeps
 * hold 432,000 strings, 40% of the server's heap objects, which every full collection marks
 * again, in the middle of the next upload too (docs/performance.md, "Session 43"). A text is cut
 * out of its chunk when a page's row asks for it.
 */

/** Results per chunk: a power of two, so a result's chunk is a shift of its index. */
const SHIFT = 11;
const CHUNK = 1 << SHIFT;
const IN_CHUNK = CHUNK - 1;
/** Set on an end for a null text (ends within a chunk stay far below 2^31). */
const NULL = 0x80000000;
const END = 0x7fffffff;

export class PackedTexts {
  constructor(
    private readonly chunks: readonly string[],
    /** Per result, where its text ends in its chunk, NULL set for a null text. */
    private readonly ends: Uint32Array,
  ) {}

  get length(): number {
    return this.ends.length;
  }

  /** Characters held (a one-byte string holds one byte each), and 4 bytes per result. */
  get bytes(): number {
    return this.chunks.reduce((sum, chunk) => sum + chunk.length, 0) + this.ends.byteLength;
  }

  private startOf(i: number): number {
    return (i & IN_CHUNK) === 0 ? 0 : this.ends[i - 1]! & END;
  }

  get(i: number): string | null {
    const end = this.ends[i]!;
    if ((end & NULL) !== 0) return null;
    return this.chunks[i >>> SHIFT]!.slice(this.startOf(i), end);
  }

  /** Whether the i-th text is `text`, without cutting it out. */
  is(i: number, text: string): boolean {
    const end = this.ends[i]!;
    if ((end & NULL) !== 0) return false;
    const start = this.startOf(i);
    return end - start === text.length && this.chunks[i >>> SHIFT]!.startsWith(text, start);
  }
}

export class PackedTextsBuilder {
  private readonly chunks: string[] = [];
  private pending: string[] = [];
  private readonly ends: number[] = [];
  private end = 0;

  push(text: string | null | undefined): void {
    if (text === null || text === undefined) {
      this.ends.push(this.end | NULL);
    } else {
      this.pending.push(text);
      this.end += text.length;
      this.ends.push(this.end);
    }
    if ((this.ends.length & IN_CHUNK) === 0) this.flush();
  }

  private flush(): void {
    this.chunks.push(this.pending.join(""));
    this.pending = [];
    this.end = 0;
  }

  done(): PackedTexts {
    if ((this.ends.length & IN_CHUNK) !== 0) this.flush();
    // `| NULL` made negative numbers of the nulls' ends; a Uint32Array reads them back unsigned.
    return new PackedTexts(this.chunks, new Uint32Array(this.ends));
  }
}

/** The texts packed, in their order. */
export function packTexts(texts: Iterable<string | null | undefined>): PackedTexts {
  const builder = new PackedTextsBuilder();
  for (const text of texts) builder.push(text);
  return builder.done();
}
