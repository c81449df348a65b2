import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import { compressBody, type ContentEncoding } from "../../http/compression.js";

interface KeptDetail {
  version: string;
  body: string;
  /** The body compressed, per encoding asked for so far: a hit then compresses nothing again. */
  encoded: Partial<Record<ContentEncoding, Buffer>>;
}

/**
 * Serialized run details (up to ~10 MB each for a 14,000-result run), kept while they are
 * current. A finished run is opened again and again (the morning's failures, by several people)
 * and building its answer costs ~300 ms; sending a kept one costs a few.
 *
 * An answer is current while its version is: the runs row's version (xmin: every write to a run's
 * results or attachments also updates its row, see finalizeRun and attachToResult), the
 * '@unstable' test ids and the ticket pattern (the derived statuses). So nothing needs to be told
 * to forget anything, and several servers on one database each keep their own copies safely.
 */
export class RunDetailCache {
  private readonly bodies: LRUCache<string, KeptDetail>;

  constructor(private readonly maxBytes = 48 * 1024 * 1024) {
    this.bodies = new LRUCache({
      maxSize: maxBytes,
      // Characters, near enough bytes for JSON; a body larger than maxBytes is not kept.
      sizeCalculation: (entry) =>
        Math.max(1, entry.body.length) +
        Object.values(entry.encoded).reduce((sum, bytes) => sum + bytes.length, 0),
    });
  }

  /** Whether a body of `chars` characters would be kept (not one larger than the whole cache). */
  keeps(chars: number): boolean {
    return chars <= this.maxBytes;
  }

  get(key: string, version: string): string | undefined {
    const entry = this.bodies.get(key);
    return entry?.version === version ? entry.body : undefined;
  }

  set(key: string, version: string, body: string): void {
    this.bodies.set(key, { version, body, encoded: {} });
  }

  /**
   * `body` compressed in `encoding`: the kept bytes when this version is kept, else compressed
   * now (and kept with it when it is).
   */
  async encoded(
    key: string,
    version: string,
    body: string,
    encoding: ContentEncoding,
  ): Promise<Buffer> {
    const known = this.current(key, version)?.encoded[encoding];
    if (known) return known;
    const bytes = await compressBody(body, encoding);
    // Looked up again: the entry may have changed while the body was compressed. Set again so
    // the entry's size counts the new bytes.
    const kept = this.current(key, version);
    if (kept) this.bodies.set(key, { ...kept, encoded: { ...kept.encoded, [encoding]: bytes } });
    return bytes;
  }

  private current(key: string, version: string): KeptDetail | undefined {
    const entry = this.bodies.get(key);
    return entry?.version === version ? entry : undefined;
  }
}

/** The version of a run detail (see RunDetailCache), also its ETag. */
export function runDetailVersion(
  rowVersion: string,
  unstableTestIds: ReadonlySet<number>,
  ticketPattern: string,
): string {
  const hash = createHash("sha256").update(`${rowVersion}\u0000${ticketPattern}\u0000`);
  hash.update([...unstableTestIds].sort((a, b) => a - b).join(","));
  return `"${hash.digest("base64url").slice(0, 27)}"`;
}
