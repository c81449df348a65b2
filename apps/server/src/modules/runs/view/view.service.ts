import {
  BACKEND_VIEW_COLUMNS,
  DEFAULT_RUN_HISTORY_LIMIT,
  FRONTEND_VIEW_COLUMNS,
  NO_UNSTABLE,
  type BackendRun,
  type BackendRunView,
  type DefectType,
  type FrontendRun,
  type FrontendRunView,
  type RunHistory,
  type RunViewQuery,
} from "@assay/core";
import type { Db } from "../../../db/pool.js";
import { badRequest } from "../../../errors.js";
import { listTags } from "../../tags/tags.service.js";
import { historyOf } from "../run-history.service.js";
import { runDetailVersion } from "../run-detail-cache.js";
import { requireRun, unstableTestIds } from "../runs.service.js";
import type { BuildRules } from "./view-build.js";
import { buildBackendView, buildFrontendView } from "./view-build.js";
import type { KeptView, RunViewCache } from "./view-cache.js";
import { failureTestsOf } from "./view-failures.js";
import { keptIndexes, lowerTag, type TagTests } from "./view-filter.js";

export interface RunViewContext {
  db: Db;
  cache: RunViewCache;
  ticketPattern: string;
  majorTags: readonly string[];
  /** The catalogue's testIdPattern: tags that only carry a test id are no filter option. */
  testIdPattern: string | undefined;
  /**
   * The run's results of a failure group and/or defect type (triage's, given by buildApp: runs
   * does not import triage, which reads runs). Absent: those filters keep nothing.
   */
  causeFilter?: (
    runId: number,
    filter: { groupId?: number; type?: DefectType },
  ) => Promise<ReadonlySet<number>>;
}

const NOTHING: ReadonlySet<number> = new Set();

/** The results the cause filters keep, or null when the query has none. */
function causeResultsOf(
  ctx: RunViewContext,
  runId: number,
  query: RunViewQuery,
): Promise<ReadonlySet<number>> | null {
  if (query.group === undefined && query.defect === undefined) return null;
  if (!ctx.causeFilter) return Promise.resolve(NOTHING);
  return ctx.causeFilter(runId, { groupId: query.group, type: query.defect });
}

type Family = "frontend" | "backend";

function idTagMatcher(testIdPattern: string | undefined): (tag: string) => boolean {
  if (!testIdPattern) return () => false;
  const whole = new RegExp(`^@?(?:${testIdPattern})$`, "i");
  return (tag) => whole.test(tag.trim());
}

async function viewOf(ctx: RunViewContext, family: Family, key: string): Promise<KeptView> {
  const [run, unstable] = await Promise.all([
    requireRun(ctx.db, family, key),
    family === "frontend" ? unstableTestIds(ctx.db) : Promise.resolve(NO_UNSTABLE),
  ]);
  const version = runDetailVersion(run.row_version, unstable, ctx.ticketPattern);
  const known = ctx.cache.get(family, key, version);
  if (known) return known;
  const rules: BuildRules = {
    unstableTestIds: unstable,
    ticketPattern: ctx.ticketPattern,
    majorTags: ctx.majorTags,
    isIdTag: idTagMatcher(ctx.testIdPattern),
  };
  const build = family === "frontend" ? buildFrontendView : buildBackendView;
  return ctx.cache.once(family, key, version, () => build(ctx.db, run, version, rules));
}

/**
 * Builds a stored run's view in the background, once its upload is acknowledged, so that the
 * first open of the run (the common case: each night's run opened in the morning) finds it
 * built instead of building it (about a second for 100,000 results). Only on the server that
 * stored it; a failure here leaves the build to the first read, which reports it.
 */
export function warmRunView(ctx: RunViewContext, run: { family: string; key: string }): void {
  if (run.family !== "frontend" && run.family !== "backend") return;
  ctx.cache.track(viewOf(ctx, run.family, run.key).catch(() => undefined));
}

type StoredRun = { family: string; key: string };

/**
 * `hook` (ingest's run-ended hook, a plain object) that also warms the view of each run it is
 * told is committed (warmRunView).
 */
export function withViewWarming<H extends { committed(run?: StoredRun): Promise<void> }>(
  hook: H,
  ctx: RunViewContext,
): H {
  return {
    ...hook,
    committed: (run?: StoredRun) => {
      if (run) warmRunView(ctx, run);
      return hook.committed(run);
    },
  };
}

function runOf(view: KeptView, key: string) {
  return { id: view.runId, key, start: view.runStart };
}

/** The recent history of the tests of a page's results, as the cards' icons show it. */
async function pageHistory(
  ctx: RunViewContext,
  view: KeptView,
  key: string,
  page: readonly number[],
): Promise<RunHistory> {
  const { results } = view;
  const tests = new Set(page.map((index) => results.testIdOf(index)));
  const own = results.ofTests(tests).map((index) => results.entryOf(index));
  return historyOf(ctx.db, runOf(view, key), own, DEFAULT_RUN_HISTORY_LIMIT);
}

async function tagTestsOf(db: Db): Promise<TagTests> {
  const tags = await listTags(db);
  const map = new Map<string, ReadonlySet<number>>();
  for (const [name, entry] of Object.entries(tags.byTag)) {
    map.set(lowerTag(name), new Set(entry.test_ids));
  }
  return map;
}

/** The filtered list's page and what every family's answer shares. */
async function pageOf(ctx: RunViewContext, family: Family, key: string, query: RunViewQuery) {
  const view = await viewOf(ctx, family, key);
  const tags = new Set(query.tags.map(lowerTag));
  const needTags = tags.size > 0 || query.summary;
  const [tagTests, failureTests, causeResults] = await Promise.all([
    needTags ? tagTestsOf(ctx.db) : new Map<string, ReadonlySet<number>>(),
    query.failure
      ? failureTestsOf(
          ctx.db,
          view,
          runOf(view, key),
          () => Array.from({ length: view.results.length }, (_, i) => view.results.entryOf(i)),
          query.failure,
        )
      : null,
    causeResultsOf(ctx, view.runId, query),
  ]);
  const search = (query.q ?? "").trim().toLowerCase();
  const kept = keptIndexes(view.results, {
    hide: new Set(query.hide),
    tags,
    tagTests,
    failureTests,
    causeResults,
    search,
    searchText: (index) => view.results.searchTextOf(index),
  });
  const page = kept.slice(query.offset, query.offset + query.limit);
  const { locate } = query;
  const located =
    locate === undefined
      ? -1
      : kept.findIndex((index) => view.results.hasTestRunTestId(index, locate));
  const summary = query.summary
    ? {
        ...view.summary,
        tag_options: [...new Set([...tagTests.keys(), ...view.summary.tag_options])]
          .filter((tag) => tag !== "")
          .sort(),
      }
    : null;
  const common = {
    warnings: view.warnings,
    summary,
    total: view.results.length,
    shown: kept.length,
    offset: query.offset,
    limit: query.limit,
    located: located < 0 ? null : located,
  };
  return { view, page, common, rows: page.map((index) => view.results.rowOf(index)) };
}

/**
 * One page of a frontend run's view: the final results the filters keep, in report order, from
 * `offset`, with the run, its counts and Failed Summary (unless summary=false) and the recent
 * history of the page's tests.
 */
export async function getFrontendView(
  ctx: RunViewContext,
  key: string,
  query: RunViewQuery,
): Promise<FrontendRunView> {
  const { view, page, common, rows } = await pageOf(ctx, "frontend", key, query);
  return {
    run: view.run as FrontendRun,
    ...common,
    columns: [...FRONTEND_VIEW_COLUMNS],
    rows: rows as FrontendRunView["rows"],
    history: page.length > 0 ? await pageHistory(ctx, view, key, page) : {},
  };
}

/** One page of a backend run's view, as getFrontendView but without history. */
export async function getBackendView(
  ctx: RunViewContext,
  key: string,
  query: RunViewQuery,
): Promise<BackendRunView> {
  if (query.failure) {
    throw badRequest("The failure filter is for frontend runs: leave out failure=.");
  }
  const { view, common, rows } = await pageOf(ctx, "backend", key, query);
  return {
    run: view.run as BackendRun,
    ...common,
    columns: [...BACKEND_VIEW_COLUMNS],
    rows: rows as BackendRunView["rows"],
  };
}
