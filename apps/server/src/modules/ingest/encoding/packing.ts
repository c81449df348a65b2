/**
 * Consecutive views of one ArrayBuffer, into which a parse worker packs everything of a batch
 * (rows, test keys and texts) that crosses to the request's thread as bytes. One buffer is
 * transferred there and, once the batch is written, given back to be packed again (see
 * parse-worker.ts): the bytes of an upload's batches then circulate in a few buffers, instead of
 * a new one per batch that the request's thread freed only when its V8 heap was next collected
 * (60 MB of malloc arenas more for 300k tests than for 100k).
 */
export class Packing {
  private offset = 0;

  constructor(readonly buffer: ArrayBuffer) {}

  /** Bytes a Packing needs for views of `byteLengths` (each view aligned to 8 bytes). */
  static size(...byteLengths: number[]): number {
    return byteLengths.reduce((sum, length) => sum + align(length), 0);
  }

  bytes(length: number): Uint8Array<ArrayBuffer> {
    return new Uint8Array(this.buffer, this.take(length), length);
  }

  int32s(length: number): Int32Array<ArrayBuffer> {
    return new Int32Array(this.buffer, this.take(length * 4), length);
  }

  float64s(length: number): Float64Array<ArrayBuffer> {
    return new Float64Array(this.buffer, this.take(length * 8), length);
  }

  private take(byteLength: number): number {
    const at = this.offset;
    this.offset += align(byteLength);
    if (this.offset > this.buffer.byteLength) throw new Error("a batch outgrew its packing buffer");
    return at;
  }
}

const align = (byteLength: number) => Math.ceil(byteLength / 8) * 8;
