import { DEFAULT_RUN_PAGE_SIZE, RUN_PAGE_SIZES, type BuildRegion } from "@assay/core";

/**
 * The Builds screen's state lives in its URL (spec section 2: tab state 0, 1 or 2), so a link
 * opens the same view: /builds?tab=1&page=2, the Frontend region (?region=CHINA), the New Build
 * dialog (?new=1, with a handed-over tag list in ?tags=), and a build's log (?log={id}).
 * It lives with the shared parts because Test Reports links here too (Rerun, failed-ids hand-off).
 */

/** The tabs in order: their index is the spec's tab state 0, 1, 2. */
export const BUILD_TABS = ["frontend", "backend", "load"] as const;
export type BuildTab = (typeof BUILD_TABS)[number];
export type BuildPageSize = (typeof RUN_PAGE_SIZES)[number];

export interface BuildsState {
  tab: BuildTab;
  /** The Frontend tab's US / CHINA switch. */
  region: BuildRegion;
  page: number;
  size: BuildPageSize;
  /** The tab's Create Build dialog is open. */
  newBuild: boolean;
  /** Tags (or TC ids) handed to New Build, e.g. a run's failed ids; the dialog runs By Test Tags. */
  tags: readonly string[];
  /** The build whose log is open. */
  log: string | null;
}

export const DEFAULT_BUILDS_STATE: BuildsState = {
  tab: "frontend",
  region: "US",
  page: 1,
  size: DEFAULT_RUN_PAGE_SIZE,
  newBuild: false,
  tags: [],
  log: null,
};

function readTab(value: string | null): BuildTab {
  const index = Number(value);
  return Number.isInteger(index) ? (BUILD_TABS[index] ?? "frontend") : "frontend";
}

function readPage(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

function readSize(value: string | null): BuildPageSize {
  return RUN_PAGE_SIZES.find((size) => String(size) === value) ?? DEFAULT_RUN_PAGE_SIZE;
}

/** A handed-over list: split on commas and whitespace, blanks and repeats dropped. */
export function readTagList(value: string | null): string[] {
  if (!value) return [];
  return [...new Set(value.split(/[\s,]+/).filter((tag) => tag !== ""))];
}

export function readBuildsState(search: URLSearchParams): BuildsState {
  const tags = readTagList(search.get("tags"));
  return {
    tab: readTab(search.get("tab")),
    region: search.get("region") === "CHINA" ? "CHINA" : "US",
    page: readPage(search.get("page")),
    size: readSize(search.get("size")),
    newBuild: search.get("new") === "1" || tags.length > 0,
    tags,
    log: search.get("log") || null,
  };
}

/** The URL of a state; defaults are left out so links stay short. */
export function buildsHref(state: Partial<BuildsState>): string {
  const full = { ...DEFAULT_BUILDS_STATE, ...state };
  const search = new URLSearchParams();
  search.set("tab", String(BUILD_TABS.indexOf(full.tab)));
  if (full.tab === "frontend" && full.region !== "US") search.set("region", full.region);
  if (full.page !== 1) search.set("page", String(full.page));
  if (full.size !== DEFAULT_RUN_PAGE_SIZE) search.set("size", String(full.size));
  if (full.newBuild) search.set("new", "1");
  if (full.newBuild && full.tags.length > 0) search.set("tags", full.tags.join(","));
  if (full.log) search.set("log", full.log);
  return `/builds?${search.toString()}`;
}
