import { PENDING_MARKER, type DisplayStatus } from "@assay/core";
import type { EntryRow } from "../run-history.service.js";
import type { ViewFacts } from "./view-filter.js";

/**
 * A run's final results as the run view keeps them (view-cache.ts), one column per field instead
 * of one object per result: numbers and flags in typed arrays, the texts that repeat across a
 * run (tag lists, tickets, site, browser, platform, commit, pending reason) once in a table the
 * rows point into. An object, an array and a Date per result cost the 100k-result view of the
 * write bench ~100 MB of heap; these columns a fifth of it (docs/performance.md, "Session 35").
 * A page's rows are made again from the columns when it is cut: 60 rows, microseconds.
 */

const STATUSES: readonly DisplayStatus[] = ["passed", "failed", "skipped", "unstable"];
const RAWS = ["passed", "failed", "skipped"] as const;
export type RawStatus = (typeof RAWS)[number];

const FLAKY = 1;
const PENDING = 2;
const ERROR_CUT = 4;

/** What a stored string costs V8 beside its characters (header, alignment), roughly. */
const STRING_OVERHEAD = 24;
/** A slot of a JS array (a pointer). */
const SLOT = 8;

/** One result as the builder gives it: what the rows send and what the filters read. */
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
  start_time: Date | null;
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

/** Values that repeat, kept once: each distinct value has one index. */
class SharedValues {
  readonly values: unknown[] = [];
  private readonly index = new Map<string, number>();
  bytes = 0;

  private put(key: string, value: unknown, bytes: number): number {
    const known = this.index.get(key);
    if (known !== undefined) return known;
    this.index.set(key, this.values.length);
    this.values.push(value);
    this.bytes += bytes + SLOT;
    return this.values.length - 1;
  }

  text(value: string | null | undefined): number {
    if (value === null || value === undefined) return this.put("n", null, 0);
    return this.put(`s${value}`, value, STRING_OVERHEAD + value.length);
  }

  list(value: readonly string[] | undefined): number {
    const list = value ?? [];
    const bytes = list.reduce((sum, item) => sum + STRING_OVERHEAD + item.length + SLOT, 32);
    return this.put(`a${JSON.stringify(list)}`, list, bytes);
  }

  /** The table without its lookup map, which only the build needs. */
  done(): unknown[] {
    this.index.clear();
    return this.values;
  }
}

const SHARED = [
  "tags",
  "tickets",
  "pending_reason",
  "nora_site",
  "chrome_version",
  "platform",
  "commit_hash",
] as const;
type Shared = (typeof SHARED)[number];

export class ViewResults implements ViewFacts {
  readonly length: number;
  /** Estimated heap the columns hold, for the cache's bound. */
  readonly bytes: number;
  private readonly ids: Float64Array;
  private readonly testIds: Float64Array;
  private readonly statuses: Uint8Array;
  private readonly raws: Uint8Array;
  private readonly flags: Uint8Array;
  private readonly durations: Float64Array;
  private readonly attempts: Uint32Array;
  /** ms since the epoch; NaN for a result without a start. */
  private readonly starts: Float64Array;
  private readonly testRunTestIds: string[];
  private readonly names: string[];
  private readonly titles: (string | null)[];
  private readonly scenarios: (string | null)[];
  /** Frontend: the card's cut failure message; empty for a backend view. */
  private readonly errors: (string | null)[];
  private readonly screenshots: (string | null)[];
  private readonly shared: Record<Shared, Uint32Array>;
  private readonly values: unknown[];
  /** Each shared tag list lower-cased, by its index in `values`. */
  private readonly lowerTags = new Map<number, readonly string[]>();
  /** Result indexes ordered by test id, then report order (made on the first ask). */
  private byTest?: Uint32Array;
  private searchTexts?: (string | undefined)[];

  constructor(
    inputs: readonly ResultInput[],
    readonly family: "frontend" | "backend",
    lower: (tag: string) => string,
  ) {
    const n = inputs.length;
    this.length = n;
    this.ids = new Float64Array(n);
    this.testIds = new Float64Array(n);
    this.statuses = new Uint8Array(n);
    this.raws = new Uint8Array(n);
    this.flags = new Uint8Array(n);
    this.durations = new Float64Array(n);
    this.attempts = new Uint32Array(family === "backend" ? n : 0);
    this.starts = new Float64Array(n);
    this.testRunTestIds = new Array<string>(n);
    this.names = new Array<string>(n);
    this.titles = new Array<string | null>(n);
    this.scenarios = new Array<string | null>(n);
    const frontend = family === "frontend";
    this.errors = new Array<string | null>(frontend ? n : 0);
    this.screenshots = new Array<string | null>(frontend ? n : 0);
    const table = new SharedValues();
    const shared = Object.fromEntries(SHARED.map((name) => [name, new Uint32Array(n)]));
    this.shared = shared as Record<Shared, Uint32Array>;
    let texts = 0;
    const text = (value: string | null | undefined) =>
      value === null || value === undefined ? 0 : STRING_OVERHEAD + value.length;
    inputs.forEach((input, i) => {
      this.ids[i] = input.id;
      this.testIds[i] = input.test_id;
      this.statuses[i] = STATUSES.indexOf(input.status);
      this.raws[i] = RAWS.indexOf(input.raw);
      this.flags[i] =
        (input.flaky ? FLAKY : 0) |
        (input.pending ? PENDING : 0) |
        (input.error_cut ? ERROR_CUT : 0);
      this.durations[i] = input.duration_ms;
      if (!frontend) this.attempts[i] = input.attempt ?? 0;
      this.starts[i] = input.start_time === null ? NaN : input.start_time.getTime();
      this.testRunTestIds[i] = input.test_run_test_id;
      this.names[i] = input.name;
      this.titles[i] = input.title;
      this.scenarios[i] = input.scenario;
      texts += text(input.test_run_test_id) + text(input.name) + text(input.title);
      texts += text(input.scenario);
      if (frontend) {
        this.errors[i] = input.error_message ?? null;
        this.screenshots[i] = input.screenshot ?? null;
        texts += text(input.error_message) + text(input.screenshot);
      }
      this.shared.tags[i] = table.list(input.tags);
      this.shared.tickets[i] = table.list(input.tickets);
      this.shared.pending_reason[i] = table.text(input.pending_reason);
      this.shared.nora_site[i] = table.text(input.nora_site);
      this.shared.chrome_version[i] = table.text(input.chrome_version);
      this.shared.platform[i] = table.text(input.platform);
      this.shared.commit_hash[i] = table.text(input.commit_hash);
    });
    let lowerBytes = 0;
    for (const index of new Set(this.shared.tags)) {
      const tags = (table.values[index] as readonly string[]).map(lower);
      this.lowerTags.set(index, tags);
      lowerBytes += tags.reduce((sum, tag) => sum + STRING_OVERHEAD + tag.length + SLOT, 64);
    }
    const typed = n * (8 + 8 + 1 + 1 + 1 + 8 + 8 + SHARED.length * 4) + this.attempts.byteLength;
    const slots = n * SLOT * (frontend ? 6 : 4);
    this.bytes = typed + slots + texts + table.bytes + lowerBytes;
    this.values = table.done();
  }

  idOf(i: number): number {
    return this.ids[i]!;
  }
  testIdOf(i: number): number {
    return this.testIds[i]!;
  }
  statusOf(i: number): DisplayStatus {
    return STATUSES[this.statuses[i]!]!;
  }
  /** The result's report tags, trimmed and lower-cased. */
  tagsOf(i: number): readonly string[] {
    return this.lowerTags.get(this.shared.tags[i]!)!;
  }
  testRunTestIdOf(i: number): string {
    return this.testRunTestIds[i]!;
  }

  private value<T>(column: Shared, i: number): T {
    return this.values[this.shared[column][i]!] as T;
  }

  /** The row as sent (FRONTEND_VIEW_COLUMNS or BACKEND_VIEW_COLUMNS). */
  rowOf(i: number): unknown[] {
    const head = [
      this.ids[i],
      this.testRunTestIds[i],
      this.testIds[i],
      this.names[i],
      this.titles[i],
      this.scenarios[i],
      this.statusOf(i),
    ];
    const duration = this.durations[i];
    if (this.family === "backend") {
      return [...head, this.attempts[i], duration, this.value("pending_reason", i)];
    }
    const flags = this.flags[i]!;
    return [
      ...head,
      (flags & FLAKY) !== 0,
      duration,
      this.value("tags", i),
      this.errors[i],
      (flags & ERROR_CUT) !== 0,
      this.value("tickets", i),
      this.value("pending_reason", i),
      this.value("nora_site", i),
      this.value("chrome_version", i),
      this.value("platform", i),
      this.value("commit_hash", i),
      this.screenshots[i],
    ];
  }

  /** What a history entry needs of the result (the pending rule reads the message). */
  entryOf(i: number): EntryRow {
    const start = this.starts[i]!;
    return {
      test_id: this.testIds[i]!,
      test_run_test_id: this.testRunTestIds[i]!,
      status: RAWS[this.raws[i]!]!,
      error_message: (this.flags[i]! & PENDING) !== 0 ? PENDING_MARKER : null,
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
        if (this.testIds[order[mid]!]! < testId) low = mid + 1;
        else high = mid;
      }
      for (let k = low; k < order.length && this.testIds[order[k]!] === testId; k++) {
        found.push(order[k]!);
      }
    }
    return found;
  }

  private orderByTest(): Uint32Array {
    const order = new Uint32Array(this.length);
    for (let i = 0; i < this.length; i++) order[i] = i;
    return order.sort((a, b) => this.testIds[a]! - this.testIds[b]! || a - b);
  }

  /** Name, title, scenario, TC id and tags, lower-cased; made on the first search. */
  searchTextOf(i: number): string {
    this.searchTexts ??= new Array<string | undefined>(this.length);
    let made = this.searchTexts[i];
    if (made === undefined) {
      const parts = [
        `tc${this.testIds[i]}`,
        this.names[i],
        this.titles[i] ?? "",
        this.scenarios[i] ?? "",
        ...this.tagsOf(i),
      ];
      made = parts.join("\n").toLowerCase();
      this.searchTexts[i] = made;
    }
    return made;
  }
}
