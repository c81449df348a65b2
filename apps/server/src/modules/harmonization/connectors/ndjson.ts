import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import { createInterface } from "node:readline";
import { ConnectorError, type RecordsRead } from "./connector.js";

/**
 * FHIR Bulk Data NDJSON (one resource per line, gzip allowed): counted by streaming newline
 * bytes, never holding a file in memory. Empty lines are not resources and are not counted.
 */
export class LineCounter {
  private lines = 0;
  /** The last byte seen; a newline at the start counts as "after a newline". */
  private previous = 10;

  add(chunk: Uint8Array): void {
    const buffer = Buffer.isBuffer(chunk)
      ? chunk
      : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    if (buffer.length === 0) return;
    let at = buffer.indexOf(10);
    while (at !== -1) {
      const before = at === 0 ? this.previous : buffer[at - 1];
      if (before !== 10) this.lines++;
      at = buffer.indexOf(10, at + 1);
    }
    this.previous = buffer[buffer.length - 1] ?? this.previous;
  }

  /** The count, with a last line that has no newline. */
  finish(): number {
    return this.lines + (this.previous !== 10 ? 1 : 0);
  }
}

const GZIP_MAGIC = [0x1f, 0x8b];

/** The stream, gunzipped when its first bytes say gzip (whatever the object's name says). */
async function* decoded(body: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const iterator = body[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) return;
  const head = first.value;
  async function* whole(): AsyncGenerator<Uint8Array> {
    yield head;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }
  if (head[0] !== GZIP_MAGIC[0] || head[1] !== GZIP_MAGIC[1]) {
    yield* whole();
    return;
  }
  yield* Readable.from(whole()).pipe(createGunzip());
}

export async function countNdjsonLines(body: AsyncIterable<Uint8Array>): Promise<number> {
  const counter = new LineCounter();
  await pipeline(
    Readable.from(decoded(body), { objectMode: false }),
    new Writable({
      highWaterMark: 1 << 20,
      write(chunk: Buffer, _encoding, done) {
        counter.add(chunk);
        done();
      },
    }),
  );
  return counter.finish();
}

/** The first `limit` records of an NDJSON stream; a line that is not a JSON object is refused. */
export async function readNdjsonRecords(
  body: AsyncIterable<Uint8Array>,
  limit: number,
): Promise<RecordsRead> {
  const input = Readable.from(decoded(body));
  const lines = createInterface({ input, crlfDelay: Infinity });
  const records: Record<string, unknown>[] = [];
  let truncated = false;
  let number = 0;
  try {
    for await (const line of lines) {
      number++;
      if (line.trim() === "") continue;
      if (records.length === limit) {
        truncated = true;
        break;
      }
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        throw new ConnectorError(`line ${number} is not JSON`);
      }
      if (typeof value !== "object" || value === null || Array.isArray(value))
        throw new ConnectorError(`line ${number} is not a JSON object`);
      records.push(value as Record<string, unknown>);
    }
  } finally {
    lines.close();
    input.destroy();
  }
  return { records, truncated };
}
