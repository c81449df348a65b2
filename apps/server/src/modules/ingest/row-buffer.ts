/**
 * The encoded COPY rows of one batch, kept as UTF-8 bytes outside the JavaScript heap until the
 * batch is written. A row waits 50-150 ms for its batch and the database: long enough, as a
 * string, to outlive two scavenges and be promoted to V8's old generation, which then grew by
 * everything an upload wrote before a full GC collected it (old space at 220 MB for a 100k-test
 * file, about half of it row text). Bytes in a buffer the writer reuses from batch to batch cost
 * the same whatever the file size.
 *
 * Each row is stored without its first columns (ids known only once the batch reaches the
 * database); `chunks` puts a head in front of each row as it builds the COPY data.
 */
/** A RowBuffer's rows as structured-clonable data (`bytes` can be transferred). */
export interface PackedRows {
  bytes: Uint8Array<ArrayBuffer>;
  ends: number[];
}

export class RowBuffer {
  private bytes: Buffer;
  private used = 0;
  /** End offset of each row in `bytes`. */
  private ends: number[] = [];

  constructor(initialBytes = 1024 * 1024) {
    this.bytes = Buffer.allocUnsafe(initialBytes);
  }

  /** The rows as plain data to post to another thread: a copy of the bytes in use. */
  packed(): PackedRows {
    const bytes = new Uint8Array(this.used);
    bytes.set(this.bytes.subarray(0, this.used));
    return { bytes, ends: this.ends.slice() };
  }

  /** Rows packed by another thread's RowBuffer; their bytes are used as they are. */
  static unpacked({ bytes, ends }: PackedRows): RowBuffer {
    const rows = new RowBuffer(0);
    rows.bytes = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    rows.used = bytes.byteLength;
    rows.ends = ends;
    return rows;
  }

  get rows(): number {
    return this.ends.length;
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
    this.ends.push(this.used);
  }

  /** Empties the buffer for the next batch, keeping its memory. */
  clear(): void {
    this.used = 0;
    this.ends.length = 0;
  }

  /**
   * The rows as COPY data in chunks of about `chunkBytes`: head(i) (text, UTF-8 encoded here)
   * then row i's stored bytes. Each chunk is a new buffer, as the connection may still hold it
   * after it is handed over.
   */
  *chunks(head: (row: number) => string, chunkBytes = 64 * 1024): Generator<Buffer> {
    let chunk = Buffer.allocUnsafe(chunkBytes);
    let filled = 0;
    let start = 0;
    for (let i = 0; i < this.ends.length; i++) {
      const text = head(i);
      const end = this.ends[i]!;
      const size = text.length * 3 + (end - start);
      if (filled > 0 && filled + size > chunk.length) {
        yield chunk.subarray(0, filled);
        chunk = Buffer.allocUnsafe(Math.max(chunkBytes, size));
        filled = 0;
      } else if (size > chunk.length) {
        chunk = Buffer.allocUnsafe(size);
      }
      filled += chunk.write(text, filled, "utf8");
      filled += this.bytes.copy(chunk, filled, start, end);
      start = end;
    }
    if (filled > 0) yield chunk.subarray(0, filled);
  }
}
