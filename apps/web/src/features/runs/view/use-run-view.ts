import {
  BackendRunViewSchema,
  FrontendRunViewSchema,
  viewRowObject,
  type BackendRunView,
  type BackendViewResult,
  type DefectType,
  type DisplayStatus,
  type FailureFilter,
  type FrontendRunView,
  type FrontendViewResult,
  type RunHistory,
} from "@assay/core";
import {
  keepPreviousData,
  useQueries,
  useQuery,
  useQueryClient,
  type QueryClient,
} from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { getJson, type ResponseParser } from "../../../api/client";
import { queryKeys } from "../../../api/query-keys";
import { filtersOneClickAway } from "./one-click-away";
import { pagesAround, pageOffset, pageOfIndex, FIRST_PAGE_ROWS, NEXT_PAGE_ROWS } from "./pages";

/**
 * A run's results dialog data from the run view (GET /v1/test-runs/{key}/view or
 * /v1/api-test-run/{key}/view): the first page brings the run, its counts and Failed Summary and
 * the first rows; the list asks for the pages of the rows it shows (pages.ts), each a query of
 * its own, so a jump to the end of 100,000 results fetches the last pages, not every page
 * between. Filters are the server's: a new filter set is a new query, and the list on screen
 * stays until its first page is in.
 */

export { FIRST_PAGE_ROWS, NEXT_PAGE_ROWS };

/**
 * A jump (the scrollbar dragged, End and its scroll animation, a linked result) asks for its
 * pages once the list has stayed there this long: the pages it passes on the way are not
 * fetched. Scrolling on, with the top row on a page already asked for, asks at once.
 */
export const JUMP_SETTLE_MS = 200;

/** How long the list on screen stays before the views one click away are asked for. */
const ONE_CLICK_AWAY_AFTER_MS = 300;

export interface ViewFilters {
  hidden: ReadonlySet<DisplayStatus>;
  tags: readonly string[];
  failure: FailureFilter | null;
  search: string;
  /** A test_run_test_id to find the index of (a shared link to one result). */
  locate?: string;
  /** Only the failures of this failure group / defect type (triage's cause filters). */
  group?: number | null;
  defect?: DefectType | null;
}

const NO_TAGS: readonly string[] = [];

/** The Backend results dialog's filters: Hide failed and a search, and the result linked to. */
/** The statuses the Backend dialog's Hide switches leave out (the server filters them). */
export type BackendHideable = "passed" | "failed" | "skipped";

export function backendViewFilters(
  hidden: ReadonlySet<BackendHideable>,
  search: string,
  locate: string | undefined,
  cause: { group: number | null; defect: DefectType | null } = { group: null, defect: null },
): ViewFilters {
  // A copy: the filters are read into the query key, which must not change under it.
  return { hidden: new Set(hidden), tags: NO_TAGS, failure: null, search, locate, ...cause };
}

interface Families {
  frontend: { page: FrontendRunView; row: FrontendViewResult };
  backend: { page: BackendRunView; row: BackendViewResult };
}
type AnyPage = FrontendRunView | BackendRunView;

const PATH = { frontend: "/v1/test-runs", backend: "/v1/api-test-run" } as const;
const SCHEMA = { frontend: FrontendRunViewSchema, backend: BackendRunViewSchema } as const;

function searchOf(filters: ViewFilters): URLSearchParams {
  const params = new URLSearchParams();
  // Sorted, so that the same filters make the same query key whatever the click order.
  if (filters.hidden.size > 0) params.set("hide", [...filters.hidden].sort().join(","));
  if (filters.tags.length > 0) params.set("tags", [...filters.tags].sort().join(","));
  if (filters.failure) params.set("failure", filters.failure);
  if (filters.group != null) params.set("group", String(filters.group));
  if (filters.defect) params.set("defect", filters.defect);
  if (filters.search.trim() !== "") params.set("q", filters.search.trim());
  if (filters.locate) params.set("locate", filters.locate);
  return params;
}

/** The request for page `page` of the view under the filters `search` (a query string). */
function pageRequest<F extends keyof Families>(
  family: F,
  key: string,
  search: string,
  page: number,
) {
  const params = new URLSearchParams(search);
  params.set("offset", String(pageOffset(page)));
  params.set("limit", String(page === 0 ? FIRST_PAGE_ROWS : NEXT_PAGE_ROWS));
  if (page > 0) params.set("summary", "false");
  return {
    queryKey: [...queryKeys.runView(family, key, search), page] as const,
    path: `${PATH[family]}/${encodeURIComponent(key)}/view?${params.toString()}`,
    schema: SCHEMA[family] as unknown as ResponseParser<Families[F]["page"]>,
  };
}

/** Page `page` of the view under the filters `search` (a query string). */
function pageQuery<F extends keyof Families>(family: F, key: string, search: string, page: number) {
  const { queryKey, path, schema } = pageRequest(family, key, search, page);
  return {
    queryKey,
    queryFn: ({ signal }: { signal: AbortSignal }) => getJson(path, schema, signal),
    // A finished run does not change; a few seconds keep a hover's prefetch for the click.
    staleTime: 10_000,
  };
}

/** Decoded rows per page answer, made once per answer whatever re-renders. */
const decoded = new WeakMap<AnyPage, unknown[]>();
function rowsOf<R>(page: AnyPage): R[] {
  let rows = decoded.get(page);
  if (!rows) {
    rows = page.rows.map((row) => viewRowObject<R>(page.columns, row));
    decoded.set(page, rows);
  }
  return rows as R[];
}

/** The later pages' answers as one array, the same array until one of them changes. */
const dataOf = <T>(results: readonly { data: T | undefined }[]) => results.map((r) => r.data);

export function useRunView<F extends keyof Families>(
  family: F,
  key: string,
  filters: ViewFilters,
  enabled = true,
) {
  type Row = Families[F]["row"];
  type Page = Families[F]["page"];
  const search = searchOf(filters).toString();
  const on = enabled && key !== "";
  const query = useQuery({
    ...pageQuery(family, key, search, 0),
    enabled: on,
    placeholderData: keepPreviousData,
  });
  const first = query.data;
  // Later pages are asked for under the filters the first page on screen answered.
  const current = first !== undefined && !query.isPlaceholderData;
  const [wanted, setWanted] = useState<{ search: string; pages: readonly number[] }>({
    search,
    pages: [],
  });
  const pages = current && wanted.search === search ? wanted.pages : NO_PAGES;
  // The first pages one click away, asked for once this one is in and has stayed a moment.
  const queryClient = useQueryClient();
  const nearby = filtersOneClickAway(family, filters)
    .map((next) => searchOf(next).toString())
    .join("\n");
  useEffect(() => {
    if (!on || !current) return;
    const timer = setTimeout(() => {
      for (const next of nearby.split("\n"))
        void queryClient.prefetchQuery(pageQuery(family, key, next, 0));
    }, ONE_CLICK_AWAY_AFTER_MS);
    return () => clearTimeout(timer);
  }, [on, current, nearby, family, key, queryClient]);
  const later = useQueries({
    queries: pages.map((page) => ({ ...pageQuery(family, key, search, page), enabled: on })),
    combine: dataOf<Page>,
  });

  const loaded = useMemo(() => {
    const byPage = new Map<number, Row[]>();
    if (first) byPage.set(0, rowsOf<Row>(first));
    pages.forEach((page, i) => {
      const data = later[i];
      if (data) byPage.set(page, rowsOf<Row>(data));
    });
    return byPage;
  }, [first, pages, later]);
  const rowAt = useCallback(
    (index: number): Row | undefined => {
      const page = pageOfIndex(index);
      return loaded.get(page)?.[index - pageOffset(page)];
    },
    [loaded],
  );
  const rows = useMemo(() => [...loaded.values()].flat(), [loaded]);
  const history = useMemo(() => {
    const merged: RunHistory = {};
    for (const data of [first, ...later]) {
      if (data && "history" in data) Object.assign(merged, data.history);
    }
    return merged;
  }, [first, later]);

  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const shown = current ? first.shown : 0;
  /** The list shows rows firstIndex..lastIndex: their pages (and those just past) load. */
  const onRowsShown = useCallback(
    (firstIndex: number, lastIndex: number) => {
      if (shown === 0) return;
      const next = pagesAround(firstIndex, lastIndex, shown);
      clearTimeout(timer.current);
      const set = () =>
        setWanted((known) => {
          const pages = known.search === search ? keptNear(known.pages, next) : next;
          return known.search === search && sameList(known.pages, pages)
            ? known
            : { search, pages };
        });
      // The top row on a page asked for already: scrolling on, so at once. Otherwise the list
      // jumped, or is still on its way (a scroll animation moves pages a frame): wait for it.
      const top = pageOfIndex(firstIndex);
      if (top === 0 || pages.includes(top)) set();
      else timer.current = setTimeout(set, JUMP_SETTLE_MS);
    },
    [shown, search, pages, setWanted],
  );
  return { query, first, rowAt, rows, history, onRowsShown };
}

const NO_PAGES: readonly number[] = [];

/** Pages asked for before that stay asked for while the list shows rows this close to them. */
const KEEP_NEAR_PAGES = 2;

/**
 * `next`, plus the pages asked for before that are near it. A page that loads changes the
 * cards' heights and can move the rows shown back onto the previous pages; were those dropped,
 * the list would go back and forth between two sets of pages, a render each way, until React
 * stops it (its maximum update depth, seen in the 100,000-result journey). Kept, the set settles.
 */
function keptNear(previous: readonly number[], next: readonly number[]): readonly number[] {
  if (next.length === 0) return next;
  const low = Math.min(...next) - KEEP_NEAR_PAGES;
  const high = Math.max(...next) + KEEP_NEAR_PAGES;
  const near = previous.filter((page) => page >= low && page <= high);
  return [...new Set([...near, ...next])].sort((a, b) => a - b);
}

function sameList(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

/**
 * Starts fetching a run's first page before its dialog asks (a row hovered or focused, or the
 * dialog's URL opened cold: opening-read.ts), under the filters the dialog will open with (the
 * same query key, or the prefetch is lost).
 */
export function prefetchRunView(
  queryClient: QueryClient,
  family: keyof Families,
  key: string,
  filters: ViewFilters,
): Promise<void> {
  return queryClient.prefetchQuery(pageQuery(family, key, searchOf(filters).toString(), 0));
}

/**
 * The request of a run's first page under `filters`: what the server reads for a page it
 * renders (first-screen.tsx), and the query the answer is put under, as prefetchRunView's.
 */
export function firstPageRequest(family: keyof Families, key: string, filters: ViewFilters) {
  return pageRequest(family, key, searchOf(filters).toString(), 0);
}
