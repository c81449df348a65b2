import { createHash } from "node:crypto";
import type { TraceabilityMatrix } from "@assay/core";
import { compressBody, type ContentEncoding } from "../../http/compression.js";

/**
 * The Traceability Matrix's answer, kept while its data version holds (matrixDataVersion in
 * traceability.repo.ts). Building it reads every test's latest result (20,000 index probes at
 * the issue's size, ~0.3-0.5 s on this machine); the screen, the CSV export and the print view
 * ask for it again and again between two uploads, and each of those answers is a version check
 * (a few ms) plus the kept JSON, compressed once per encoding. While someone has looked at the
 * matrix lately, a change is noticed and the answer rebuilt in the background (the routes'
 * refresher), so the next request after an upload finds it ready. Nothing needs to be told to
 * forget it, and several servers on one database each keep their own copy safely.
 */

export interface MatrixAnswer {
  /** The answer's ETag; undefined when the data changed while it was built (not kept). */
  etag: string | undefined;
  body: string;
  matrix: TraceabilityMatrix;
}

interface Kept {
  answer: MatrixAnswer;
  encoded: Partial<Record<ContentEncoding, Buffer>>;
}

/** The ETag of a data version and the tag pattern that decides coverage. */
export function matrixEtag(dataVersion: string, rmsTagPattern: string): string {
  const hash = createHash("sha256").update(`${dataVersion}\u0000${rmsTagPattern}`);
  return `"m-${hash.digest("base64url").slice(0, 27)}"`;
}

/** How long after its last request the matrix is kept current in the background. */
export const MATRIX_WATCH_MS = 15 * 60_000;

export class MatrixCache {
  private kept: Kept | undefined;
  /** When the matrix was last asked for: while someone looks at it, it is rebuilt ahead. */
  private askedAt = 0;
  /** The answer being built, shared by the requests that arrive meanwhile for its version. */
  private building: { etag: string; answer: Promise<MatrixAnswer> } | undefined;

  get(etag: string): MatrixAnswer | undefined {
    return this.kept?.answer.etag === etag ? this.kept.answer : undefined;
  }

  /** Whether the matrix was asked for within MATRIX_WATCH_MS of `now`. */
  watched(now = Date.now()): boolean {
    return now - this.askedAt < MATRIX_WATCH_MS;
  }

  /** The answer for `etag`: kept, being built, or built now by `build` (and kept if stable). */
  async answer(
    etag: string,
    build: () => Promise<MatrixAnswer>,
    { asked = true }: { asked?: boolean } = {},
  ): Promise<MatrixAnswer> {
    if (asked) this.askedAt = Date.now();
    const kept = this.get(etag);
    if (kept) return kept;
    if (this.building?.etag === etag) return this.building.answer;
    const answer = build();
    const building = { etag, answer };
    this.building = building;
    try {
      const built = await answer;
      if (built.etag === etag) this.kept = { answer: built, encoded: {} };
      return built;
    } finally {
      if (this.building === building) this.building = undefined;
    }
  }

  /** `answer`'s body in `encoding`: compressed once while it is the kept answer. */
  async encoded(answer: MatrixAnswer, encoding: ContentEncoding): Promise<Buffer> {
    const known = this.keptOf(answer)?.encoded[encoding];
    if (known) return known;
    const bytes = await compressBody(answer.body, encoding);
    // Looked up again: another answer may have been kept while this one was compressed.
    const kept = this.keptOf(answer);
    if (kept) kept.encoded[encoding] = bytes;
    return bytes;
  }

  private keptOf(answer: MatrixAnswer) {
    return this.kept?.answer === answer ? this.kept : undefined;
  }
}
