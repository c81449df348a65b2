import { PENDING_MARKER, type DisplayStatus } from "@assay/core";
import type { EntryRow } from "../run-history.service.js";
import type { ViewFacts } from "./view-filter.js";
import type { PackedTexts } from "./packed-texts.js";

/**
 * A run's final results as the run view keeps them (view-cache.ts), one column per field instead
 * of one object per result: numbers and flags in typed arrays, the texts that repeat across a
 * run (tag lists, tickets, site, browser, platform, commit, pending reason) once in a table the
 * rows point into, each result's own texts packed a few long strings a column (packed-texts.ts).
 * An object, an array and a Date per result cost the 100k-result view of the write bench ~100 MB
 * of heap; these columns a fifth of it (docs/performance.md, "Session 35").
 * A page's rows are made again from the columns when it is cut: 60 rows, microseconds.
 */

/** The statuses' codes in the columns: their indexes here. */
export const STATUSES: readonly DisplayStatus[] = ["passed", "failed", "skipped", "unstable"];
export const RAWS = ["passed", "failed", "skipped"] as const;
export type RawStatus = (typeof RAWS)[number];

/** Bits of the flags column. */
export const FLAKY = 1;
export const PENDING = 2;
export const ERROR_CUT = 4;

/** One result as the view's build gives it: what the rows send and what the filters read. */
export interface ResultInput {
  id: number;
  test_run_test_id: string;
  test_id: number;
  name: string;
  title: string | null;
  scenario: string | null;
  status: DisplayStatus;
  raw: RawStatus;
  pending: boolean;
  /** ms since the epoch (what a Date holds), null when it has no start. */
  start_ms: number | null;
  duration_ms: number;
  tags: readonly string[];
  pending_reason: string | null;
  /** Frontend only. */
  flaky?: boolean;
  error_message?: string | null;
  error_cut?: boolean;
  tickets?: readonly string[];
  nora_site?: string | null;
  chrome_version?: string | null;
  platform?: string | null;
  commit_hash?: string | null;
  screenshot?: string | null;
  /** Backend only. */
  attempt?: number;
}

export const SHARED = [
  "tags",
  "tickets",
  "pending_reason",
  "nora_site",
  "chrome_version",
  "platform",
  "commit_hash",
] as const;
export type Shared = (typeof SHARED)[number];

/**
 * The columns of a run's results, as ViewResultsBuilder (view-columns-builder.ts) makes them: in
 * the order the results arrived, which `order` maps report order to.
 */
export interface ViewColumns {
  readonly length: number;
  /** For the i-th result in report order (by id), its place in the columns. */
  readonly order: Uint32Array;
  /** Estimated heap the columns hold, for the cache's bound. */
  readonly bytes: number;
  readonly ids: Float64Array;
  readonly testIds: Float64Array;
  readonly statuses: Uint8Array;
  readonly raws: Uint8Array;
  readonly flags: Uint8Array;
  readonly durations: Float64Array;
  /** Backend only (empty for a frontend view). */
  readonly attempts: Uint32Array;
  /** ms since the epoch; NaN for a result without a start. */
  readonly starts: Float64Array;
  readonly testRunTestIds: PackedTexts;
  readonly names: PackedTexts;
  readonly titles: PackedTexts;
  readonly scenarios: PackedTexts;
  /** Frontend: the card's cut failure message; empty for a backend view. */
  readonly errors: PackedTexts;
  readonly screenshots: PackedTexts;
  /** Per result, its value's index in `values`. */
  readonly shared: Readonly<Record<Shared, Uint32Array>>;
  readonly values: readonly unknown[];
  /** Each shared tag list lower-cased, by its index in `values`. */
  readonly lowerTags: ReadonlyMap<number, readonly string[]>;
}

export class ViewResults implements ViewFacts {
  readonly length: number;
  readonly bytes: number;
  /** Result indexes ordered by test id, then report order (made on the first ask). */
  private byTest?: Uint32Array;
  private searchTexts?: (string | undefined)[];

  constructor(
    private readonly c: ViewColumns,
    readonly family: "frontend" | "backend",
  ) {
    this.length = c.length;
    this.bytes = c.bytes;
  }

  /** Where the i-th result in report order is in the columns. */
  private at(i: number): number {
    return this.c.order[i]!;
  }

  idOf(i: number): number {
    return this.c.ids[this.at(i)]!;
  }
  testIdOf(i: number): number {
    return this.c.testIds[this.at(i)]!;
  }
  statusOf(i: number): DisplayStatus {
    return STATUSES[this.c.statuses[this.at(i)]!]!;
  }
  /** The result's report tags, trimmed and lower-cased. */
  tagsOf(i: number): readonly string[] {
    return this.c.lowerTags.get(this.c.shared.tags[this.at(i)]!)!;
  }
  testRunTestIdOf(i: number): string {
    return this.c.testRunTestIds.get(this.at(i))!;
  }
  /** Whether the result's test_run_test_id is `id` (a locate's scan: nothing cut out). */
  hasTestRunTestId(i: number, id: string): boolean {
    return this.c.testRunTestIds.is(this.at(i), id);
  }

  /** The shared value of `column` of the result at `at` in the columns. */
  private value<T>(column: Shared, at: number): T {
    return this.c.values[this.c.shared[column][at]!] as T;
  }

  /** The row as sent (FRONTEND_VIEW_COLUMNS or BACKEND_VIEW_COLUMNS). */
  rowOf(i: number): unknown[] {
    const { c } = this;
    const at = this.at(i);
    const head = [
      c.ids[at],
      c.testRunTestIds.get(at),
      c.testIds[at],
      c.names.get(at),
      c.titles.get(at),
      c.scenarios.get(at),
      STATUSES[c.statuses[at]!],
    ];
    const duration = c.durations[at];
    if (this.family === "backend") {
      return [...head, c.attempts[at], duration, this.value("pending_reason", at)];
    }
    const flags = c.flags[at]!;
    return [
      ...head,
      (flags & FLAKY) !== 0,
      duration,
      this.value("tags", at),
      c.errors.get(at),
      (flags & ERROR_CUT) !== 0,
      this.value("tickets", at),
      this.value("pending_reason", at),
      this.value("nora_site", at),
      this.value("chrome_version", at),
      this.value("platform", at),
      this.value("commit_hash", at),
      c.screenshots.get(at),
    ];
  }

  /** What a history entry needs of the result (the pending rule reads the message). */
  entryOf(i: number): EntryRow {
    const { c } = this;
    const at = this.at(i);
    const start = c.starts[at]!;
    return {
      test_id: c.testIds[at]!,
      test_run_test_id: c.testRunTestIds.get(at)!,
      status: RAWS[c.raws[at]!]!,
      error_message: (c.flags[at]! & PENDING) !== 0 ? PENDING_MARKER : null,
      start_time: Number.isNaN(start) ? null : new Date(start),
    };
  }

  /** Indexes of the results of these tests, by test then report order. */
  ofTests(testIds: Iterable<number>): number[] {
    const order = (this.byTest ??= this.orderByTest());
    const found: number[] = [];
    for (const testId of testIds) {
      let low = 0;
      let high = order.length;
      while (low < high) {
        const mid = (low + high) >>> 1;
        if (this.testIdOf(order[mid]!) < testId) low = mid + 1;
        else high = mid;
      }
      for (let k = low; k < order.length && this.testIdOf(order[k]!) === testId; k++) {
        found.push(order[k]!);
      }
    }
    return found;
  }

  private orderByTest(): Uint32Array {
    const order = new Uint32Array(this.length);
    for (let i = 0; i < this.length; i++) order[i] = i;
    return order.sort((a, b) => this.testIdOf(a) - this.testIdOf(b) || a - b);
  }

  /** Name, title, scenario, TC id and tags, lower-cased; made on the first search. */
  searchTextOf(i: number): string {
    this.searchTexts ??= new Array<string | undefined>(this.length);
    let made = this.searchTexts[i];
    if (made === undefined) {
      const at = this.at(i);
      const parts = [
        `tc${this.c.testIds[at]}`,
        this.c.names.get(at),
        this.c.titles.get(at) ?? "",
        this.c.scenarios.get(at) ?? "",
        ...this.tagsOf(i),
      ];
      made = parts.join("\n").toLowerCase();
      this.searchTexts[i] = made;
    }
    return made;
  }
}
