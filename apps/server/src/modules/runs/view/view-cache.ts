import type { BackendRun, FrontendRun, FailureFilter, RunViewSummary } from "@assay/core";
import { LRUCache } from "lru-cache";
import type { ViewResults } from "./view-columns.js";

/** The tests each failure filter keeps, by stable test id. */
export type FailureTests = Record<FailureFilter, ReadonlySet<number>>;

/** A run's view, built once per version of the run (see runDetailVersion). */
export interface KeptView {
  version: string;
  run: FrontendRun | BackendRun;
  runId: number;
  runStart: Date;
  warnings: string[];
  /** The final results in report order, as columns (view-columns.ts). */
  results: ViewResults;
  /** The summary but the dynamic tags' names, which change without the run. */
  summary: RunViewSummary;
  /**
   * Tests each failure filter keeps, with when their read started (history moves on): see
   * view-failures.ts. Undefined until a page first asks for a failure filter.
   */
  failures?: { at: number; tests: Promise<FailureTests> };
}

/** What the cache holds at most by default: two views of 100,000 results, or many small ones. */
export const RUN_VIEW_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * Run views kept while current: building one reads every final result of the run (about a
 * second for 100,000), cutting a page from a kept one takes milliseconds. A view is current
 * while its version is, like the run details (run-detail-cache.ts). The cache is bounded by the
 * heap its views hold (ViewResults.bytes, an estimate: ~250 bytes a result in the write bench's
 * 100k run), so that the server's memory does not grow with the size of the runs kept.
 */
export class RunViewCache {
  private readonly views: LRUCache<string, KeptView>;
  /** Views being built, by run and version: a second reader waits for the same build. */
  private readonly building = new Map<string, Promise<KeptView>>();
  /** Views being warmed after an upload's answer (view.service.ts, warmRunView). */
  private readonly warming = new Set<Promise<unknown>>();

  constructor(maxBytes = RUN_VIEW_CACHE_BYTES) {
    this.views = new LRUCache({
      maxSize: maxBytes,
      // A view larger than the whole bound is not kept: the next read builds it again.
      sizeCalculation: (view) => Math.max(1, view.results.bytes),
    });
  }

  get(family: string, key: string, version: string): KeptView | undefined {
    const view = this.views.get(`${family}\u0000${key}`);
    return view?.version === version ? view : undefined;
  }

  set(family: string, key: string, view: KeptView): void {
    this.views.set(`${family}\u0000${key}`, view);
  }

  /** Counts `work` (a warming) among what `settled` waits for, from now until it ends. */
  track(work: Promise<unknown>): void {
    this.warming.add(work);
    void work.finally(() => this.warming.delete(work));
  }

  /**
   * Once no view is being warmed or built: background work after an upload (triage) goes after
   * the view a person may be opening (issue 36: the first open as fast as the next).
   */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.warming, ...this.building.values()]);
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
