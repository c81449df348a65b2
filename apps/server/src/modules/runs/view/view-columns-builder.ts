import {
  ERROR_CUT,
  FLAKY,
  PENDING,
  RAWS,
  SHARED,
  STATUSES,
  ViewResults,
  type ResultInput,
  type Shared,
} from "./view-columns.js";
import { PackedTextsBuilder, packTexts } from "./packed-texts.js";

/*
 * Builds a run's ViewResults (view-columns.ts) one result at a time, as the rows arrive from the
 * database: no array of the run's rows or inputs is ever held, and what outlives the young
 * generation is the columns themselves, not 100,000 row objects (docs/performance.md, "Session
 * 40: the run view read as it arrives").
 */

/** The shared columns whose values are lists. */
const LISTS: ReadonlySet<Shared> = new Set(["tags", "tickets"]);

/** What a stored string costs V8 beside its characters (header, alignment), roughly. */
const STRING_OVERHEAD = 24;
/** A slot of a JS array (a pointer). */
const SLOT = 8;

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
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((item, i) => item === b[i]);

/**
 * One shared column: each result's index in the table. Neighbouring results mostly repeat a
 * value (a run's site, browser, commit; a suite's tags), which is then taken without building
 * its key: the lookups were a fifth of a 100,000-result build's CPU.
 */
class SharedColumn {
  readonly indexes: number[] = [];
  private last: { value: string | null | readonly string[]; index: number } | undefined;

  constructor(
    private readonly table: SharedValues,
    private readonly kind: "text" | "list",
  ) {}

  push(value: string | null | undefined | readonly string[]): void {
    const given = value ?? (this.kind === "list" ? [] : null);
    const last = this.last;
    if (last !== undefined && this.same(last.value, given)) {
      this.indexes.push(last.index);
      return;
    }
    const index =
      this.kind === "list"
        ? this.table.list(given as readonly string[])
        : this.table.text(given as string | null);
    this.last = { value: given, index };
    this.indexes.push(index);
  }

  private same(a: string | null | readonly string[], b: string | null | readonly string[]) {
    if (this.kind === "text") return a === b;
    return sameList(a as readonly string[], b as readonly string[]);
  }
}

export class ViewResultsBuilder {
  // Plain arrays while the count is unknown; typed arrays once done.
  private readonly ids: number[] = [];
  private readonly testIds: number[] = [];
  private readonly statuses: number[] = [];
  private readonly raws: number[] = [];
  private readonly flags: number[] = [];
  private readonly durations: number[] = [];
  private readonly attempts: number[] = [];
  private readonly starts: number[] = [];
  private readonly testRunTestIds = new PackedTextsBuilder();
  private readonly names = new PackedTextsBuilder();
  private readonly titles = new PackedTextsBuilder();
  private readonly scenarios = new PackedTextsBuilder();
  private readonly errors = new PackedTextsBuilder();
  /** Set once the results are in order (screenshots come after their rows): packed at the end. */
  private readonly screenshots: (string | null)[] = [];
  private readonly table = new SharedValues();
  private readonly shared = Object.fromEntries(
    SHARED.map((name) => [name, new SharedColumn(this.table, LISTS.has(name) ? "list" : "text")]),
  ) as Record<Shared, SharedColumn>;
  private readonly frontend: boolean;
  /** Whether the results came in id order so far (the reads leave the order to the build). */
  private sorted = true;
  /** Screenshots by result id, set on the results once they are in order. */
  private readonly shots = new Map<number, string>();

  constructor(
    readonly family: "frontend" | "backend",
    private readonly lower: (tag: string) => string,
  ) {
    this.frontend = family === "frontend";
  }

  add(input: ResultInput): void {
    if (this.sorted && input.id < (this.ids.at(-1) ?? -Infinity)) this.sorted = false;
    this.ids.push(input.id);
    this.testIds.push(input.test_id);
    this.statuses.push(STATUSES.indexOf(input.status));
    this.raws.push(RAWS.indexOf(input.raw));
    this.flags.push(
      (input.flaky ? FLAKY : 0) | (input.pending ? PENDING : 0) | (input.error_cut ? ERROR_CUT : 0),
    );
    this.durations.push(input.duration_ms);
    if (!this.frontend) this.attempts.push(input.attempt ?? 0);
    this.starts.push(input.start_ms ?? NaN);
    this.testRunTestIds.push(input.test_run_test_id);
    this.names.push(input.name);
    this.titles.push(input.title);
    this.scenarios.push(input.scenario);
    if (this.frontend) {
      this.errors.push(input.error_message);
      this.screenshots.push(input.screenshot ?? null);
    }
    const { shared } = this;
    shared.tags.push(input.tags);
    shared.tickets.push(input.tickets);
    shared.pending_reason.push(input.pending_reason);
    shared.nora_site.push(input.nora_site);
    shared.chrome_version.push(input.chrome_version);
    shared.platform.push(input.platform);
    shared.commit_hash.push(input.commit_hash);
  }

  /** Gives the result with id `resultId` its screenshot (frontend); ignored for an id not added. */
  screenshot(resultId: number, key: string): void {
    if (this.frontend) this.shots.set(resultId, key);
  }

  /** The results in report order: by id, whatever order they were added in. */
  done(): ViewResults {
    const n = this.ids.length;
    const ids = new Float64Array(this.ids);
    const order = this.idOrder(ids);
    const { screenshots } = this;
    for (const [resultId, key] of this.shots) {
      const at = indexOf(ids, order, resultId);
      if (at >= 0) screenshots[at] = key;
    }
    const texts = {
      testRunTestIds: this.testRunTestIds.done(),
      names: this.names.done(),
      titles: this.titles.done(),
      scenarios: this.scenarios.done(),
      errors: this.errors.done(),
      screenshots: packTexts(screenshots),
    };
    const textBytes = Object.values(texts).reduce((sum, column) => sum + column.bytes, 0);
    const { table } = this;
    const lowerTags = new Map<number, readonly string[]>();
    let lowerBytes = 0;
    for (const index of new Set(this.shared.tags.indexes)) {
      const tags = (table.values[index] as readonly string[]).map(this.lower);
      lowerTags.set(index, tags);
      lowerBytes += tags.reduce((sum, tag) => sum + STRING_OVERHEAD + tag.length + SLOT, 64);
    }
    const attempts = new Uint32Array(this.attempts);
    const typed = n * (4 + 8 + 8 + 1 + 1 + 1 + 8 + 8 + SHARED.length * 4) + attempts.byteLength;
    const shared = Object.fromEntries(
      SHARED.map((name) => [name, new Uint32Array(this.shared[name].indexes)]),
    ) as Record<Shared, Uint32Array>;
    const columns = {
      length: n,
      order,
      bytes: typed + textBytes + table.bytes + lowerBytes,
      ids,
      testIds: new Float64Array(this.testIds),
      statuses: new Uint8Array(this.statuses),
      raws: new Uint8Array(this.raws),
      flags: new Uint8Array(this.flags),
      durations: new Float64Array(this.durations),
      attempts,
      starts: new Float64Array(this.starts),
      ...texts,
      shared,
      values: table.values,
      lowerTags,
    };
    return new ViewResults(columns, this.family);
  }

  /** The places of the results added, ordered by their ids. */
  private idOrder(ids: Float64Array): Uint32Array {
    const order = new Uint32Array(ids.length);
    for (let i = 0; i < order.length; i++) order[i] = i;
    return this.sorted ? order : order.sort((a, b) => ids[a]! - ids[b]!);
  }
}

/** Where `id` is in `ids` (whose places `order` sorts by id), or -1. */
function indexOf(ids: Float64Array, order: Uint32Array, id: number): number {
  let low = 0;
  let high = order.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (ids[order[mid]!]! < id) low = mid + 1;
    else high = mid;
  }
  const at = order[low];
  return at !== undefined && ids[at] === id ? at : -1;
}

/** The ViewResults of these inputs, in their order. */
export function viewResultsOf(
  inputs: Iterable<ResultInput>,
  family: "frontend" | "backend",
  lower: (tag: string) => string,
): ViewResults {
  const builder = new ViewResultsBuilder(family, lower);
  for (const input of inputs) builder.add(input);
  return builder.done();
}
