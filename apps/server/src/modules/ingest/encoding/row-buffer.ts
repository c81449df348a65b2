import { COPY_BYTE_ESCAPES } from "./copy.js";
import { Packing } from "./packing.js";

/**
 * The encoded COPY rows of one batch, kept as UTF-8 bytes outside the JavaScript heap until the
 * batch is written. A row waits 50-150 ms for its batch and the database: long enough, as a
 * string, to outlive two scavenges and be promoted to V8's old generation, which then grew by
 * everything an upload wrote before a full GC collected it (old space at 220 MB for a 100k-test
 * file, about half of it row text). Bytes in a buffer the writer reuses from batch to batch cost
 * the same whatever the file size.
 *
 * Each row is stored without its leading columns (ids known only once the batch reaches the
 * database); `chunks` puts them in front of each row as it builds the COPY data. BatchTests keeps
 * its texts in one too, a text per append.
 */
/** A RowBuffer's rows as structured-clonable data (`bytes` can be transferred). */
export interface PackedRows {
  bytes: Uint8Array<ArrayBuffer>;
  ends: Int32Array<ArrayBuffer>;
}

export class RowBuffer {
  private bytes: Buffer;
  private used = 0;
  /**
   * End offset of each row in `bytes`, in ends[0..count). A typed array: posted as a JavaScript
   * array, a batch's ends were 64 KB of the request thread's heap, promoted while it waited.
   */
  private ends = new Int32Array(256);
  private count = 0;

  constructor(initialBytes = 1024 * 1024) {
    this.bytes = Buffer.allocUnsafe(initialBytes);
  }

  /** Bytes packed() takes from its Packing. */
  get packedSize(): number {
    return Packing.size(this.used, this.count * 4);
  }

  /** The rows as plain data to post to another thread: a copy of what is in use. */
  packed(into: Packing): PackedRows {
    const bytes = into.bytes(this.used);
    bytes.set(this.bytes.subarray(0, this.used));
    const ends = into.int32s(this.count);
    ends.set(this.ends.subarray(0, this.count));
    return { bytes, ends };
  }

  /** Rows packed by another thread's RowBuffer; they are used as they are. */
  static unpacked({ bytes, ends }: PackedRows): RowBuffer {
    const rows = new RowBuffer(0);
    rows.bytes = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    rows.used = bytes.byteLength;
    rows.ends = ends;
    rows.count = ends.length;
    return rows;
  }

  get rows(): number {
    return this.count;
  }

  /** Byte length of the text appended `index`-th. */
  textBytes(index: number): number {
    return this.ends[index]! - this.startOf(index);
  }

  /** Copies the bytes of the text appended `index`-th to `target` at `at`; returns the end. */
  copyText(index: number, target: Buffer, at: number): number {
    return at + this.bytes.copy(target, at, this.startOf(index), this.ends[index]);
  }

  /**
   * Copies the text appended `index`-th to `target` at `at` as a COPY text value (see
   * encodeCopyValue: backslash, tab, newline and carriage return escaped, NUL as U+FFFD), which
   * takes at most three times its bytes; returns the end.
   */
  copyEscapedText(index: number, target: Buffer, at: number): number {
    const bytes = this.bytes;
    const end = this.ends[index]!;
    for (let i = this.startOf(index); i < end; i++) {
      const byte = bytes[i]!;
      const escape = byte < COPY_BYTE_ESCAPES.length ? COPY_BYTE_ESCAPES[byte] : undefined;
      if (escape === undefined) {
        target[at++] = byte;
      } else {
        for (const b of escape) target[at++] = b;
      }
    }
    return at;
  }

  /** The text appended `index`-th, decoded. */
  textAt(index: number): string {
    return this.bytes.toString("utf8", this.startOf(index), this.ends[index]);
  }

  private startOf(index: number): number {
    return index === 0 ? 0 : this.ends[index - 1]!;
  }

  append(tail: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 code unit.
    const worst = this.used + tail.length * 3;
    if (worst > this.bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(worst, this.bytes.length * 2));
      this.bytes.copy(grown, 0, 0, this.used);
      this.bytes = grown;
    }
    this.used += this.bytes.write(tail, this.used, "utf8");
    if (this.count === this.ends.length) {
      const grown = new Int32Array(Math.max(256, this.count * 2));
      grown.set(this.ends);
      this.ends = grown;
    }
    this.ends[this.count++] = this.used;
  }

  /** A copy of every text appended, back to back (COPY rows stay COPY data). */
  copyAll(): Buffer {
    return Buffer.from(this.bytes.subarray(0, this.used));
  }

  /** Empties the buffer for the next batch, keeping its memory. */
  clear(): void {
    this.used = 0;
    this.count = 0;
  }

  /**
   * The rows as COPY data in chunks of about `chunkBytes`: row i's leading columns, `leading[c][i]`
   * for each column c (the result's id, its test's id, its facts' id; null is written \N), then
   * its stored bytes. The ids are written as digits straight into the chunk, with no string per
   * row. Each chunk is a new buffer, as the connection may still hold it after it is handed over.
   */
  *chunks(
    leading: readonly (readonly (number | null)[])[],
    chunkBytes = 64 * 1024,
  ): Generator<Buffer> {
    let chunk = Buffer.allocUnsafe(chunkBytes);
    let filled = 0;
    let start = 0;
    for (let i = 0; i < this.count; i++) {
      const end = this.ends[i]!;
      const size = leading.length * (MAX_ID_DIGITS + 1) + (end - start);
      if (filled > 0 && filled + size > chunk.length) {
        yield chunk.subarray(0, filled);
        chunk = Buffer.allocUnsafe(Math.max(chunkBytes, size));
        filled = 0;
      } else if (size > chunk.length) {
        chunk = Buffer.allocUnsafe(size);
      }
      for (const column of leading) filled = writeNullableId(chunk, filled, column[i]!);
      filled += this.bytes.copy(chunk, filled, start, end);
      start = end;
    }
    if (filled > 0) yield chunk.subarray(0, filled);
  }
}

/** Digits of the largest id: ids are positive safe integers (bigint columns). */
export const MAX_ID_DIGITS = 16;
const DIGIT_ZERO = 0x30;
const TAB = 0x09;
const BACKSLASH = 0x5c;
const LETTER_N = 0x4e;

/** writeId, or \N (COPY's NULL) and a tab for null. */
function writeNullableId(buffer: Buffer, at: number, id: number | null): number {
  if (id !== null) return writeId(buffer, at, id);
  buffer[at] = BACKSLASH;
  buffer[at + 1] = LETTER_N;
  buffer[at + 2] = TAB;
  return at + 3;
}

/** Writes `id` in decimal followed by a tab at `at`; returns the offset after them. */
export function writeId(buffer: Buffer, at: number, id: number): number {
  let digits = 1;
  for (let power = 10; power <= id; power *= 10) digits++;
  let rest = id;
  for (let i = at + digits - 1; i >= at; i--) {
    buffer[i] = DIGIT_ZERO + (rest % 10);
    rest = Math.floor(rest / 10);
  }
  buffer[at + digits] = TAB;
  return at + digits + 1;
}
