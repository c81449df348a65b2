import type { KeyRanges, SegmentSum } from "./connectors/connector.js";

/**
 * Find missing rows: which keys one table has and the other lacks, by the reladiff (data-diff)
 * HashDiff method (../shared/reference/integrations.md section 9.1). Both sides give the row
 * count and a sum of key hashes per key segment; equal segments are done, differing ones are
 * split again, and only a segment small enough is read key by key. Memory and reads follow the
 * differences, not the table's size, and the search stops at a key or time bound.
 *
 * Keys are signed 64-bit integers (the connectors refuse others, saying so). A segment is sent to
 * the database as inclusive bounds, which always fit a BIGINT, and no segment spans more than
 * 2^63 keys, so the database's key - from cannot overflow: keys on both sides of zero that span
 * more are searched as two halves, the negative keys first.
 */

export interface KeyDiffLimits {
  /** Keys listed at most (missing and extra together). */
  maxKeys: number;
  /** The search stops, keeping what it found, after this long (ms). */
  timeBudgetMs: number;
  /** A differing segment with at most this many rows on each side is read key by key. */
  leafRows: number;
  /** Segments a differing segment is split into. */
  factor: number;
}

export const KEY_DIFF_LIMITS: KeyDiffLimits = {
  maxKeys: 1_000,
  timeBudgetMs: 20_000,
  leafRows: 10_000,
  factor: 32,
};

export interface KeyDiffSide {
  ranges: KeyRanges;
  table: string;
}

export interface KeyDiff {
  /** Keys the source has and the destination lacks, ascending. */
  missing: string[];
  /** Keys the destination has and the source lacks, ascending. */
  extra: string[];
  /** More differences exist than were listed (the key bound or the time bound was reached). */
  truncated: boolean;
  timedOut: boolean;
  /** Checksum queries run on each side, and keys read, to show the search stayed small. */
  segmentQueries: number;
  keysRead: number;
  elapsedMs: number;
}

/** A segment's keys are [from, to): `to` may be 2^63, one past the largest key, as only JavaScript holds it. */
interface Segment {
  from: bigint;
  to: bigint;
  source: number;
  destination: number;
}

/** The widest segment whose key - from fits a signed 64-bit integer. */
const HALF_RANGE = 2n ** 63n;

const same = (a: SegmentSum | undefined, b: SegmentSum | undefined) =>
  (a?.count ?? 0) === (b?.count ?? 0) && (a?.checksum ?? "0") === (b?.checksum ?? "0");

/** Multiset difference of two ascending key lists: keys of `a` not matched in `b`. */
function minus(a: readonly bigint[], b: readonly bigint[]): bigint[] {
  const out: bigint[] = [];
  let j = 0;
  for (const key of a) {
    while (j < b.length && (b[j] as bigint) < key) j++;
    if (j < b.length && b[j] === key) j++;
    else out.push(key);
  }
  return out;
}

export async function diffKeys(
  source: KeyDiffSide,
  destination: KeyDiffSide,
  key: string,
  limits: KeyDiffLimits = KEY_DIFF_LIMITS,
): Promise<KeyDiff> {
  const started = Date.now();
  const missing: bigint[] = [];
  const extra: bigint[] = [];
  let segmentQueries = 0;
  let keysRead = 0;
  let timedOut = false;
  let truncated = false;
  const full = () => missing.length + extra.length >= limits.maxKeys;
  const outOfTime = () => {
    if (Date.now() - started > limits.timeBudgetMs) timedOut = true;
    return timedOut;
  };

  const readLeaf = async (segment: Segment) => {
    const range = { from: segment.from, last: segment.to - 1n };
    const [a, b] = await Promise.all([
      source.ranges.keysIn(source.table, key, range, segment.source),
      destination.ranges.keysIn(destination.table, key, range, segment.destination),
    ]);
    keysRead += a.length + b.length;
    missing.push(...minus(a, b));
    extra.push(...minus(b, a));
  };

  // Depth first, in key order: the keys listed are the lowest differing ones.
  // The whole range is checksummed first even when small: equal tables cost one query a side.
  const visit = async (segment: Segment, known = true): Promise<void> => {
    if (full() || outOfTime()) {
      truncated = true;
      return;
    }
    const span = segment.to - segment.from;
    const small = Math.max(segment.source, segment.destination) <= limits.leafRows;
    if (span <= 1n || (known && small)) return readLeaf(segment);
    const factor = BigInt(limits.factor);
    const width = (span + factor - 1n) / factor;
    const range = { from: segment.from, last: segment.to - 1n, width };
    const [a, b] = await Promise.all([
      source.ranges.segmentSums(source.table, key, range),
      destination.ranges.segmentSums(destination.table, key, range),
    ]);
    segmentQueries++;
    const numbers = [...new Set([...a.keys(), ...b.keys()])].sort((x, y) => (x < y ? -1 : 1));
    for (const n of numbers) {
      if (same(a.get(n), b.get(n))) continue;
      const from = segment.from + n * width;
      const to = from + width < segment.to ? from + width : segment.to;
      await visit({ from, to, source: a.get(n)?.count ?? 0, destination: b.get(n)?.count ?? 0 });
    }
  };

  const [a, b] = await Promise.all([
    source.ranges.keyBounds(source.table, key),
    destination.ranges.keyBounds(destination.table, key),
  ]);
  const lows = [a.min, b.min].filter((v): v is bigint => v !== null);
  const highs = [a.max, b.max].filter((v): v is bigint => v !== null);
  if (lows.length > 0 && highs.length > 0) {
    const from = lows.reduce((x, y) => (x < y ? x : y));
    const to = highs.reduce((x, y) => (x > y ? x : y)) + 1n;
    const halves: Array<[bigint, bigint]> =
      to - from > HALF_RANGE
        ? [
            [from, 0n],
            [0n, to],
          ]
        : [[from, to]];
    for (const [low, high] of halves)
      await visit({ from: low, to: high, source: a.count, destination: b.count }, false);
  }
  const cut = (keys: bigint[], room: number) => keys.slice(0, Math.max(0, room)).map(String);
  const listedMissing = cut(missing, limits.maxKeys);
  const listedExtra = cut(extra, limits.maxKeys - listedMissing.length);
  if (listedMissing.length + listedExtra.length < missing.length + extra.length) truncated = true;
  return {
    missing: listedMissing,
    extra: listedExtra,
    truncated,
    timedOut,
    segmentQueries,
    keysRead,
    elapsedMs: Date.now() - started,
  };
}
