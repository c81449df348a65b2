import {
  NO_UNSTABLE,
  RUN_COUNT_CAP,
  unstableByRun,
  UNSTABLE_TAG,
  type ApiLogPage,
  type ApiLogQuery,
  type BackendRunDetail,
  type BackendRunPage,
  type FrontendRunDetail,
  type FrontendRunPage,
  type LoadRunDetail,
  type Defect,
  type LoadRunPage,
  type RunListQuery,
} from "@assay/core";
import type { Db } from "../../db/pool.js";
import { notFound } from "../../errors.js";
import {
  toApiRequest,
  toBackendResult,
  toBackendRun,
  toFrontendResult,
  toFrontendRun,
  toLoadRun,
  toLoadStat,
} from "./runs.mappers.js";
import { runDetailVersion, type RunDetailCache } from "./run-detail-cache.js";
import { charsOf, jsonArrayOf, type JsonPieces } from "./sent-as-built.js";
import { listBackendResults, listFrontendResults } from "./results.repo.js";
import * as repo from "./runs.repo.js";

/** What the runs services need: the database and the catalogue's ticket pattern. */
export interface RunsContext {
  db: Db;
  ticketPattern: string;
  /**
   * A failed result's defect decision (triage's, given by buildApp: runs does not import
   * triage, which reads runs), once its run's triage is done; absent: none.
   */
  defectOf?: (resultId: number, runId: number) => Promise<Defect | null>;
}

const FAMILY_LABEL: Record<repo.Family, string> = {
  frontend: "test run",
  backend: "API test run",
  load: "load test run",
};

/** The run of a family with this key, or a 404 naming the key. */
export async function requireRun(db: Db, family: repo.Family, key: string): Promise<repo.FoundRun> {
  const run = await repo.findRun(db, family, key);
  if (!run) throw notFound(`No ${FAMILY_LABEL[family]} with key ${key}.`);
  return run;
}

/** Ids of the tests in the '@unstable' tag: their failures show as unstable. */
export async function unstableTestIds(db: Db): Promise<Set<number>> {
  return new Set(await repo.listTaggedTestIds(db, UNSTABLE_TAG));
}

async function pageOfRuns(db: Db, family: repo.Family, query: RunListQuery) {
  const offset = (query.page - 1) * query.page_size;
  const [rows, counted] = await Promise.all([
    repo.listRuns(db, family, query, query.page_size, offset),
    repo.countRuns(db, family, query, RUN_COUNT_CAP),
  ]);
  return {
    rows,
    total: Math.min(counted, RUN_COUNT_CAP),
    total_exact: counted <= RUN_COUNT_CAP,
    page: query.page,
    page_size: query.page_size,
  };
}

/**
 * One page of frontend runs, newest first. Each run's unstable count is computed now (the tag
 * changes after ingestion): final failures of '@unstable' tests, taken out of failed.
 * `force` is accepted for the spec's clients; there is no cache to bypass yet.
 */
export async function listFrontendRuns(ctx: RunsContext, query: RunListQuery) {
  const { rows, ...paging } = await pageOfRuns(ctx.db, "frontend", query);
  const unstable = await unstableCounts(
    ctx.db,
    rows.map((row) => row.id),
  );
  const items = rows.map((row) => toFrontendRun(row, unstable.get(row.id) ?? 0));
  return { items, ...paging } satisfies FrontendRunPage;
}

/**
 * How many results of each frontend run are unstable (core's unstableByRun over the runs' final
 * failures of '@unstable' tests), computed at read time since the tag changes after ingestion.
 * The Dashboard and the schedules' webhooks count through it as the run lists do.
 */
export async function unstableCounts(
  db: Db,
  runIds: readonly number[],
): Promise<Map<number, number>> {
  if (runIds.length === 0) return new Map();
  // No '@unstable' test (most stores): no read of results at all.
  const unstableIds = await unstableTestIds(db);
  const failures = await repo.listTaggedFailures(db, runIds, [...unstableIds]);
  return unstableByRun(failures, unstableIds);
}

/** One page of backend (API) runs, newest first. */
export async function listBackendRuns(ctx: RunsContext, query: RunListQuery) {
  const { rows, ...paging } = await pageOfRuns(ctx.db, "backend", query);
  return { items: rows.map(toBackendRun), ...paging } satisfies BackendRunPage;
}

/** One page of load runs, newest first. */
export async function listLoadRuns(ctx: RunsContext, query: RunListQuery) {
  const { rows, ...paging } = await pageOfRuns(ctx.db, "load", query);
  return { items: rows.map(toLoadRun), ...paging } satisfies LoadRunPage;
}

/**
 * A run detail's JSON in pieces, as `JSON.stringify` gives it (its keys in the schema's order),
 * from its run and warnings and its results' JSON array (jsonArrayOf).
 */
function detailJson(
  head: Omit<FrontendRunDetail, "results"> | Omit<BackendRunDetail, "results">,
  results: JsonPieces,
): JsonPieces {
  const run = `{"run":${JSON.stringify(head.run)},"warnings":${JSON.stringify(head.warnings)},"results":`;
  return [run, ...results, "}"];
}

/**
 * A run detail as sent: its version (the ETag) and its JSON, one text when the cache can keep it
 * (and then kept), else its pieces, sent in turn and kept nowhere (JsonPieces).
 */
export interface RunDetailAnswer {
  etag: string;
  body: string | JsonPieces;
}

function keptOrPieces(
  cache: RunDetailCache,
  key: string,
  etag: string,
  pieces: JsonPieces,
): RunDetailAnswer {
  if (!cache.keeps(charsOf(pieces))) return { etag, body: pieces };
  const body = pieces.join("");
  cache.set(key, etag, body);
  return { etag, body };
}

/**
 * A frontend run and all its results (every attempt; is_final marks the ones that count), with
 * derived statuses, tickets and each result's last screenshot, read in one indexed query. The
 * JSON is kept in `cache` while the run, the '@unstable' tag and the rules are unchanged;
 * `force` builds it again whatever the cache holds.
 */
export async function getFrontendRun(
  ctx: RunsContext,
  key: string,
  cache: RunDetailCache,
  force = false,
): Promise<RunDetailAnswer> {
  const [run, unstableIds] = await Promise.all([
    requireRun(ctx.db, "frontend", key),
    unstableTestIds(ctx.db),
  ]);
  const etag = runDetailVersion(run.row_version, unstableIds, ctx.ticketPattern);
  const kept = force ? undefined : cache.get(key, etag);
  if (kept !== undefined) return { etag, body: kept };
  const rows = await listFrontendResults(ctx.db, run.id);
  const rules = { unstableTestIds: unstableIds, ticketPattern: ctx.ticketPattern };
  let unstable = 0;
  const results = await jsonArrayOf(rows, (row) => {
    const result = toFrontendResult(row, key, rules, row.screenshot);
    if (result.is_final && result.derived_status === "unstable") unstable++;
    return result;
  });
  const head = { run: toFrontendRun(run, unstable), warnings: run.warnings };
  return keptOrPieces(cache, key, etag, detailJson(head, results));
}

/**
 * A backend run and all its results, with their errors, console logs and scripts: kept and
 * versioned as the frontend run detail is (ETag, 304), under its own key in `cache`.
 */
export async function getBackendRun(
  ctx: RunsContext,
  key: string,
  cache: RunDetailCache,
  force = false,
): Promise<RunDetailAnswer> {
  const run = await requireRun(ctx.db, "backend", key);
  // Backend failures are never unstable: the '@unstable' tag is no part of the version.
  const etag = runDetailVersion(run.row_version, NO_UNSTABLE, ctx.ticketPattern);
  const cacheKey = backendCacheKey(key);
  const kept = force ? undefined : cache.get(cacheKey, etag);
  if (kept !== undefined) return { etag, body: kept };
  const rows = await listBackendResults(ctx.db, run.id);
  const results = await jsonArrayOf(rows, (row) => toBackendResult(row, key, ctx.ticketPattern));
  const head = { run: toBackendRun(run), warnings: run.warnings };
  return keptOrPieces(cache, cacheKey, etag, detailJson(head, results));
}

/** The cache key of a backend run detail: apart from a frontend run's, whatever the keys. */
export const backendCacheKey = (key: string): string => `backend\u0000${key}`;

/** A load run and its per-endpoint statistics, the aggregated row last. */
export async function getLoadRun(ctx: RunsContext, key: string): Promise<LoadRunDetail> {
  const run = await requireRun(ctx.db, "load", key);
  const stats = await repo.listLoadStats(ctx.db, run.id);
  return { run: toLoadRun(run), load_stats: stats.map(toLoadStat) };
}

/** One page of a backend run's API requests, in the order they were recorded. */
export async function getApiLog(
  ctx: RunsContext,
  key: string,
  query: ApiLogQuery,
): Promise<ApiLogPage> {
  const run = await requireRun(ctx.db, "backend", key);
  const offset = (query.page - 1) * query.page_size;
  const [rows, total] = await Promise.all([
    repo.listRunApiRequests(ctx.db, run.id, query.page_size, offset),
    repo.countRunApiRequests(ctx.db, run.id),
  ]);
  return { items: rows.map(toApiRequest), total, page: query.page, page_size: query.page_size };
}
