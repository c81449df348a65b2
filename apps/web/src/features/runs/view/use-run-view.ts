import {
  BackendRunViewSchema,
  FrontendRunViewSchema,
  viewRowObject,
  type BackendRunView,
  type BackendViewResult,
  type DisplayStatus,
  type FailureFilter,
  type FrontendRunView,
  type FrontendViewResult,
  type RunHistory,
} from "@assay/core";
import { keepPreviousData, useInfiniteQuery, type QueryClient } from "@tanstack/react-query";
import { useCallback, useMemo } from "react";
import { getJson, type ResponseParser } from "../../../api/client";
import { queryKeys } from "../../../api/query-keys";

/**
 * A run's results dialog data from the run view (GET /v1/test-runs/{key}/view or
 * /v1/api-test-run/{key}/view): the first page brings the run, its counts and Failed Summary and
 * the first rows; the list asks for more pages as it scrolls. Filters are the server's: a new
 * filter set is a new query, and the list on screen stays until its first page is in.
 */

/** The first page fills a tall screen of backend rows; later ones are larger, fewer requests. */
export const FIRST_PAGE_ROWS = 60;
export const NEXT_PAGE_ROWS = 300;

export interface ViewFilters {
  hidden: ReadonlySet<DisplayStatus>;
  tags: readonly string[];
  failure: FailureFilter | null;
  search: string;
  /** A test_run_test_id to find the index of (a shared link to one result). */
  locate?: string;
}

interface Families {
  frontend: { page: FrontendRunView; row: FrontendViewResult };
  backend: { page: BackendRunView; row: BackendViewResult };
}

const PATH = { frontend: "/v1/test-runs", backend: "/v1/api-test-run" } as const;
const SCHEMA = { frontend: FrontendRunViewSchema, backend: BackendRunViewSchema } as const;

function searchOf(filters: ViewFilters): URLSearchParams {
  const params = new URLSearchParams();
  // Sorted, so that the same filters make the same query key whatever the click order.
  if (filters.hidden.size > 0) params.set("hide", [...filters.hidden].sort().join(","));
  if (filters.tags.length > 0) params.set("tags", [...filters.tags].sort().join(","));
  if (filters.failure) params.set("failure", filters.failure);
  if (filters.search.trim() !== "") params.set("q", filters.search.trim());
  if (filters.locate) params.set("locate", filters.locate);
  return params;
}

function viewQuery<F extends keyof Families>(family: F, key: string, filters: ViewFilters) {
  const search = searchOf(filters).toString();
  return {
    queryKey: queryKeys.runView(family, key, search),
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }: { pageParam: number; signal: AbortSignal }) => {
      const params = new URLSearchParams(search);
      params.set("offset", String(pageParam));
      params.set("limit", String(pageParam === 0 ? FIRST_PAGE_ROWS : NEXT_PAGE_ROWS));
      if (pageParam > 0) params.set("summary", "false");
      const url = `${PATH[family]}/${encodeURIComponent(key)}/view?${params.toString()}`;
      const schema = SCHEMA[family] as unknown as ResponseParser<Families[F]["page"]>;
      return getJson(url, schema, signal);
    },
    getNextPageParam: (last: Families[F]["page"]) => {
      const next = last.offset + last.rows.length;
      return last.rows.length > 0 && next < last.shown ? next : undefined;
    },
    // A finished run does not change; a few seconds keep a hover's prefetch for the click.
    staleTime: 10_000,
  };
}

export function useRunView<F extends keyof Families>(
  family: F,
  key: string,
  filters: ViewFilters,
  enabled = true,
) {
  const query = useInfiniteQuery({
    ...viewQuery(family, key, filters),
    enabled: enabled && key !== "",
    placeholderData: keepPreviousData,
  });
  const { data, hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const first = data?.pages[0];
  const rows = useMemo(
    () =>
      data?.pages.flatMap((page) =>
        page.rows.map((row) => viewRowObject<Families[F]["row"]>(page.columns, row)),
      ) ?? [],
    [data],
  );
  const history = useMemo(() => {
    const merged: RunHistory = {};
    for (const page of data?.pages ?? []) {
      if ("history" in page) Object.assign(merged, page.history);
    }
    return merged;
  }, [data]);
  /** Asks for the next page once the list shows a row past what is loaded, less a margin. */
  const onRowsShown = useCallback(
    (lastIndex: number) => {
      if (hasNextPage && !isFetchingNextPage && lastIndex >= rows.length - 20) {
        void fetchNextPage();
      }
    },
    [hasNextPage, isFetchingNextPage, rows.length, fetchNextPage],
  );
  return { query, first, rows, history, onRowsShown };
}

/**
 * Starts fetching a frontend run's first page before its dialog opens (row hover or focus),
 * under the filters the dialog will open with (the same query key, or the prefetch is lost).
 */
export function prefetchFrontendView(
  queryClient: QueryClient,
  key: string,
  filters: Omit<ViewFilters, "search">,
): void {
  void queryClient.prefetchInfiniteQuery(viewQuery("frontend", key, { ...filters, search: "" }));
}
