import {
  DEFAULT_RUN_PAGE_SIZE,
  DEFECT_TYPES,
  parseFailureFilter,
  RUN_FILTER_NAMES,
  RUN_PAGE_SIZES,
  RunListQuerySchema,
  type RunFilters,
  type DefectType,
  type DisplayStatus,
  type FailureFilter,
} from "@assay/core";

/**
 * Everything the Test Reports screen shows lives in its URL, so any state can be shared as a
 * link (spec section 2): /test_runs/{key} opens the Frontend results dialog, /{test_key} the
 * test's detail, ?be=1 the Backend results dialog instead; the tab, the list's page and the
 * results dialog's Hide switches and filters are query parameters.
 */

export const REPORT_TABS = ["frontend", "backend", "load"] as const;
export type ReportTab = (typeof REPORT_TABS)[number];
export type RunPageSize = (typeof RUN_PAGE_SIZES)[number];

export const HIDEABLE_STATUSES = [
  "passed",
  "failed",
  "skipped",
  "unstable",
] as const satisfies readonly DisplayStatus[];

/**
 * Spec section 9, "Default filter: passed, skipped and unstable shown; failed off": the filter's
 * flags are the boxes' Hide switches, so Hide is on for passed, skipped and unstable and off for
 * failed, and a run opens on its failures.
 */
export const DEFAULT_HIDDEN: ReadonlySet<DisplayStatus> = new Set([
  "passed",
  "skipped",
  "unstable",
]);

export interface ResultFilters {
  hidden: ReadonlySet<DisplayStatus>;
  /** Tags a result must carry one of; empty: no tag filter. */
  tags: readonly string[];
  failure: FailureFilter | null;
  /** Triage's cause filters: a failure group's id, a defect type. */
  group?: number | null;
  defect?: DefectType | null;
}

export type OpenDialog =
  | { kind: "frontend"; key: string; testKey: string | null }
  | { kind: "backend"; key: string; testKey: string | null }
  | { kind: "load"; key: string };

export interface ReportState {
  tab: ReportTab;
  page: number;
  size: RunPageSize;
  dialog: OpenDialog | null;
  filters: ResultFilters;
  /** The run list's filters (platform, site, search, ...); absent: none. */
  list?: RunFilters;
}

/**
 * The run list's filters of a URL, each kept only when the API accepts it as written (a link
 * edited by hand to a bad value shows the list unfiltered by it, never a failing list).
 */
export function readListFilters(search: URLSearchParams): RunFilters {
  const filters: Record<string, string> = {};
  for (const name of RUN_FILTER_NAMES) {
    const value = search.get(name);
    if (value === null || value.trim() === "") continue;
    if (RunListQuerySchema.safeParse({ [name]: value }).success) filters[name] = value.trim();
  }
  const whole = RunListQuerySchema.safeParse(filters);
  // from after to: the range is dropped rather than the whole list refused.
  if (!whole.success) {
    delete filters.from;
    delete filters.to;
  }
  return filters as RunFilters;
}

/** The filters as query parameters, in the API's names (the URL and the API's query agree). */
export function listFilterParams(filters: RunFilters | undefined): [string, string][] {
  if (!filters) return [];
  return RUN_FILTER_NAMES.flatMap((name) => {
    const value = filters[name];
    return value ? [[name, value] as [string, string]] : [];
  });
}

const DEFAULT_TAB_OF: Record<OpenDialog["kind"], ReportTab> = {
  frontend: "frontend",
  backend: "backend",
  load: "load",
};

function readTab(value: string | null): ReportTab | null {
  return REPORT_TABS.find((tab) => tab === value) ?? null;
}

function readPage(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

function readSize(value: string | null): RunPageSize {
  return RUN_PAGE_SIZES.find((size) => String(size) === value) ?? DEFAULT_RUN_PAGE_SIZE;
}

function readList(value: string | null): string[] {
  if (!value) return [];
  return [...new Set(value.split(",").filter((item) => item !== ""))];
}

function readHidden(value: string | null): ReadonlySet<DisplayStatus> {
  if (value === null) return DEFAULT_HIDDEN;
  return new Set(HIDEABLE_STATUSES.filter((status) => readList(value).includes(status)));
}

function readDialog(
  key: string | undefined,
  testKey: string | undefined,
  search: URLSearchParams,
): OpenDialog | null {
  if (!key) return null;
  if (search.get("load") === "1") return { kind: "load", key };
  const kind = search.get("be") === "1" ? "backend" : "frontend";
  return { kind, key, testKey: testKey || null };
}

/** A failure group's id of a URL; anything else is no filter. */
function readGroup(value: string | null): number | null {
  return value !== null && /^\d{1,15}$/.test(value) ? Number(value) : null;
}

function readDefect(value: string | null): DefectType | null {
  return DEFECT_TYPES.find((type) => type.value === value)?.value ?? null;
}

/** The screen's state from the route's parameters and the query string. */
export function readReportState(
  params: { key?: string; test_key?: string },
  search: URLSearchParams,
): ReportState {
  const dialog = readDialog(params.key, params.test_key, search);
  return {
    tab: readTab(search.get("tab")) ?? (dialog ? DEFAULT_TAB_OF[dialog.kind] : "frontend"),
    page: readPage(search.get("page")),
    size: readSize(search.get("size")),
    dialog,
    filters: {
      hidden: readHidden(search.get("hide")),
      tags: [...new Set(search.getAll("tag").filter((tag) => tag !== ""))],
      failure: parseFailureFilter(search.get("failures")),
      group: readGroup(search.get("group")),
      defect: readDefect(search.get("defect")),
    },
    list: readListFilters(search),
  };
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((item) => b.has(item));
}

/**
 * The URL of a state: default values are left out, so the list with no dialog is /test_runs and
 * a run opened with default filters is /test_runs/{key}.
 */
export function reportHref(state: ReportState): string {
  const { dialog, filters } = state;
  const enc = encodeURIComponent;
  let path = "/test_runs";
  if (dialog) {
    path += `/${enc(dialog.key)}`;
    if (dialog.kind !== "load" && dialog.testKey) path += `/${enc(dialog.testKey)}`;
  }
  const search = new URLSearchParams();
  const impliedTab = dialog ? DEFAULT_TAB_OF[dialog.kind] : "frontend";
  if (state.tab !== impliedTab) search.set("tab", state.tab);
  if (state.page !== 1) search.set("page", String(state.page));
  if (state.size !== DEFAULT_RUN_PAGE_SIZE) search.set("size", String(state.size));
  for (const [name, value] of listFilterParams(state.list)) search.set(name, value);
  if (dialog?.kind === "backend") search.set("be", "1");
  if (dialog?.kind === "load") search.set("load", "1");
  if (dialog?.kind === "frontend") {
    if (!sameSet(filters.hidden, DEFAULT_HIDDEN)) {
      search.set("hide", HIDEABLE_STATUSES.filter((s) => filters.hidden.has(s)).join(","));
    }
    // One parameter per tag: a tag name may hold a comma.
    for (const tag of filters.tags) search.append("tag", tag);
    if (filters.failure) search.set("failures", filters.failure);
    if (filters.group != null) search.set("group", String(filters.group));
    if (filters.defect) search.set("defect", filters.defect);
  }
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

/** Filters of a freshly opened run: the spec's defaults. */
export const DEFAULT_FILTERS: ResultFilters = { hidden: DEFAULT_HIDDEN, tags: [], failure: null };
