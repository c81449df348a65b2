import type { BackendRun, FrontendRun, FailureFilter, RunViewSummary } from "@assay/core";
import { LRUCache } from "lru-cache";
import type { FilterFacts } from "./view-filter.js";

/** The tests each failure filter keeps, by stable test id. */
export type FailureTests = Record<FailureFilter, ReadonlySet<number>>;

/** One final result as the run view keeps it: the row it sends and what its filters read. */
export interface KeptResult extends FilterFacts {
  /** The row as sent (FRONTEND_VIEW_COLUMNS or BACKEND_VIEW_COLUMNS). */
  row: readonly unknown[];
  test_run_test_id: string;
  /** For the history rules: the raw status, whether the message is a pending one, the start. */
  raw: "passed" | "failed" | "skipped";
  pending: boolean;
  start_time: Date | null;
  /** name, title, scenario, TC id and tags, lower-cased; made on the first search. */
  searchText?: string;
}

/** A run's view, built once per version of the run (see runDetailVersion). */
export interface KeptView {
  version: string;
  run: FrontendRun | BackendRun;
  runId: number;
  runStart: Date;
  warnings: string[];
  results: KeptResult[];
  /** The summary but the dynamic tags' names, which change without the run. */
  summary: RunViewSummary;
  /**
   * Tests each failure filter keeps, with when their read started (history moves on): see
   * view-failures.ts. Undefined until a page first asks for a failure filter.
   */
  failures?: { at: number; tests: Promise<FailureTests> };
  /** Kept results by test id, made when a page first asks for history. */
  byTest?: Map<number, KeptResult[]>;
}

/**
 * Run views kept while current: building one reads every final result of the run (about a
 * second for 100,000), cutting a page from a kept one takes milliseconds. A view is current
 * while its version is, like the run details (run-detail-cache.ts). The cache is bounded by
 * results kept (a kept result is a few hundred bytes: its card's fields, the error cut): by
 * default 400,000, four runs of 100,000 or many small ones.
 */
export class RunViewCache {
  private readonly views: LRUCache<string, KeptView>;
  /** Views being built, by run and version: a second reader waits for the same build. */
  private readonly building = new Map<string, Promise<KeptView>>();

  constructor(maxResults = 400_000) {
    this.views = new LRUCache({
      maxSize: maxResults,
      sizeCalculation: (view) => Math.max(1, view.results.length),
    });
  }

  get(family: string, key: string, version: string): KeptView | undefined {
    const view = this.views.get(`${family}\u0000${key}`);
    return view?.version === version ? view : undefined;
  }

  set(family: string, key: string, view: KeptView): void {
    this.views.set(`${family}\u0000${key}`, view);
  }

  /** The view of this version built by `build`, once however many ask while it is built. */
  once(family: string, key: string, version: string, build: () => Promise<KeptView>) {
    const id = `${family}\u0000${key}\u0000${version}`;
    const pending = this.building.get(id);
    if (pending) return pending;
    const built = build()
      .then((view) => {
        this.set(family, key, view);
        return view;
      })
      .finally(() => this.building.delete(id));
    this.building.set(id, built);
    return built;
  }
}
