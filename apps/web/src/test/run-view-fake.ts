import {
  BACKEND_VIEW_COLUMNS,
  FRONTEND_VIEW_COLUMNS,
  VIEW_ERROR_CHARS,
  matchesFailureFilter,
  summarizeFailures,
  type BackendRunDetail,
  type BackendRunView,
  type DisplayStatus,
  type FrontendRunDetail,
  type FrontendRunView,
  type RunHistory,
} from "@assay/core";
import { jsonResponse } from "./mock-api";

/*
 * The run view endpoints (GET /v1/test-runs/{key}/view, /v1/api-test-run/{key}/view) as a fake
 * of the server for the dialogs' tests: it answers from a whole run detail with the rules the
 * server applies (apps/server/src/modules/runs/view, whose test proves them against the real
 * database), so a dialog test can say which results a filter should leave.
 */

interface FakeOptions {
  majorTags: readonly string[];
  /** Dynamic tags as lower-cased name → test ids. */
  tagTests?: ReadonlyMap<string, ReadonlySet<number>>;
  history?: RunHistory;
  isIdTag?: (tag: string) => boolean;
}

const lower = (tag: string) => tag.trim().toLowerCase();
const list = (value: string | null) =>
  (value ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);

type AnyResult = FrontendRunDetail["results"][number] | BackendRunDetail["results"][number];

function page<R extends AnyResult>(url: URL, results: readonly R[], options: FakeOptions) {
  const finals = results.filter((result) => result.is_final);
  const hide = new Set(list(url.searchParams.get("hide")) as DisplayStatus[]);
  const wanted = new Set(list(url.searchParams.get("tags")).map(lower));
  const failure = url.searchParams.get("failure");
  const search = (url.searchParams.get("q") ?? "").trim().toLowerCase();
  const tagTests = options.tagTests ?? new Map<string, ReadonlySet<number>>();
  const kept = finals.filter((result) => {
    if (hide.has(result.derived_status)) return false;
    const tags = result.tags.map(lower);
    if (
      wanted.size > 0 &&
      !tags.some((tag) => wanted.has(tag)) &&
      ![...wanted].some((tag) => tagTests.get(tag)?.has(result.test_id))
    )
      return false;
    if (failure === "new_failure" || failure === "failed_three_days") {
      const entries = options.history?.[result.test_id];
      if (!entries || !matchesFailureFilter(failure, entries)) return false;
    }
    const text = [`tc${result.test_id}`, result.name, result.title, result.scenario, ...tags];
    return search === "" || text.join("\n").toLowerCase().includes(search);
  });
  const offset = Number(url.searchParams.get("offset") ?? 0);
  const limit = Number(url.searchParams.get("limit") ?? 100);
  const counts = { total: 0, passed: 0, failed: 0, skipped: 0, unstable: 0 };
  const options_ = new Set(tagTests.keys());
  for (const result of finals) {
    counts.total++;
    counts[result.derived_status]++;
    for (const tag of result.tags) if (!options.isIdTag?.(tag)) options_.add(lower(tag));
  }
  const failed = finals.filter((result) => result.derived_status === "failed");
  const locate = url.searchParams.get("locate");
  const located = kept.findIndex((result) => result.test_run_test_id === locate);
  return {
    pageResults: kept.slice(offset, offset + limit),
    common: {
      warnings: [] as string[],
      summary:
        url.searchParams.get("summary") === "false"
          ? null
          : {
              counts,
              failed_groups: summarizeFailures(failed, options.majorTags),
              tag_options: [...options_].filter(Boolean).sort(),
            },
      total: finals.length,
      shown: kept.length,
      offset,
      limit,
      located: located < 0 ? null : located,
    },
  };
}

/** A handler of GET /v1/test-runs/{key}/view answering from `detail`. */
export function frontendViewHandler(detail: FrontendRunDetail, options: FakeOptions) {
  return (url: URL) => {
    const { pageResults, common } = page(url, detail.results, options);
    const history: RunHistory = {};
    for (const result of pageResults) {
      const entries = options.history?.[result.test_id];
      if (entries) history[result.test_id] = entries;
    }
    const body: FrontendRunView = {
      run: detail.run,
      ...common,
      warnings: detail.warnings,
      columns: [...FRONTEND_VIEW_COLUMNS],
      rows: pageResults.map((r) => {
        const failed = r.derived_status === "failed" || r.derived_status === "unstable";
        const error = failed ? r.error_message : null;
        return [
          r.id,
          r.test_run_test_id,
          r.test_id,
          r.name,
          r.title,
          r.scenario,
          r.derived_status,
          r.flaky,
          r.duration_ms,
          r.tags,
          error?.slice(0, VIEW_ERROR_CHARS) ?? null,
          (error?.length ?? 0) > VIEW_ERROR_CHARS,
          r.tickets,
          r.pending_reason,
          r.nora_site,
          r.chrome_version,
          r.platform,
          r.commit_hash,
          r.screenshot,
        ];
      }),
      history,
    };
    return jsonResponse(body);
  };
}

/** A handler of GET /v1/api-test-run/{key}/view answering from `detail`. */
export function backendViewHandler(detail: BackendRunDetail, options: FakeOptions) {
  return (url: URL) => {
    const { pageResults, common } = page(url, detail.results, options);
    const body: BackendRunView = {
      run: detail.run,
      ...common,
      warnings: detail.warnings,
      columns: [...BACKEND_VIEW_COLUMNS],
      rows: pageResults.map((r) => [
        r.id,
        r.test_run_test_id,
        r.test_id,
        r.name,
        r.title,
        r.scenario,
        r.derived_status,
        r.attempt,
        r.duration_ms,
        r.pending_reason,
      ]),
    };
    return jsonResponse(body);
  };
}
