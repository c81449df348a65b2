import {
  BackendRunPageSchema,
  FrontendRunPageSchema,
  LoadRunPageSchema,
  type BackendRun,
  type FrontendRun,
  type LoadRun,
  type RunFilters,
} from "@assay/core";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { getJson, type ResponseParser } from "../../api/client";
import { queryKeys } from "../../api/query-keys";
import { TAG_LIST_READ } from "../../api/tag-list-read";
import { listFilterParams, type ReportTab } from "./report-url";

export interface RunOf {
  frontend: FrontendRun;
  backend: BackendRun;
  load: LoadRun;
}

export interface RunPage<T> {
  items: T[];
  total: number;
  /** false: the server stopped counting at total (RUN_COUNT_CAP). */
  total_exact?: boolean;
  page: number;
  page_size: number;
}

const LISTS: { [F in ReportTab]: { path: string; schema: ResponseParser<RunPage<RunOf[F]>> } } = {
  frontend: { path: "/v1/test-runs", schema: FrontendRunPageSchema },
  backend: { path: "/v1/api-test-runs", schema: BackendRunPageSchema },
  load: { path: "/v1/load-test-runs", schema: LoadRunPageSchema },
};

function fetchRunList<F extends ReportTab>(
  family: F,
  page: number,
  pageSize: number,
  filters: RunFilters,
  force: boolean,
  signal?: AbortSignal,
): Promise<RunPage<RunOf[F]>> {
  const { path, schema } = LISTS[family];
  const query = new URLSearchParams([
    ["page", String(page)],
    ["page_size", String(pageSize)],
    ...listFilterParams(filters),
    ...(force ? [["force", "true"] as [string, string]] : []),
  ]);
  return getJson(`${path}?${query.toString()}`, schema, signal);
}

const filterKey = (filters: RunFilters) =>
  new URLSearchParams(listFilterParams(filters)).toString();

/** One page of a tab's runs, newest first; the page on screen stays while the next loads. */
export function useRunList<F extends ReportTab>(
  family: F,
  page: number,
  pageSize: number,
  filters: RunFilters = {},
) {
  return useQuery({
    queryKey: queryKeys.runList(family, page, pageSize, filterKey(filters)),
    queryFn: ({ signal }) => fetchRunList(family, page, pageSize, filters, false, signal),
    placeholderData: keepPreviousData,
  });
}

/**
 * Refresh: reloads the list on screen only, bypassing any server cache (the spec's
 * ?force=true), and leaves the other tabs' lists alone.
 */
export function useRefreshRunList() {
  const queryClient = useQueryClient();
  return useCallback(
    (family: ReportTab, page: number, pageSize: number, filters: RunFilters = {}) =>
      queryClient
        .fetchQuery({
          queryKey: queryKeys.runList(family, page, pageSize, filterKey(filters)),
          queryFn: ({ signal }) => fetchRunList(family, page, pageSize, filters, true, signal),
          staleTime: 0,
        })
        // The list's own query shows the failure; nothing more to do here.
        .catch(() => undefined),
    [queryClient],
  );
}

/**
 * The dynamic tags with their tests (GET /v1/dtag), for the results dialog's tag filter and
 * chips. Same query as the Dynamic Tags screen and the tag editor, so an edit shows everywhere.
 */
export function useDynamicTags() {
  return useQuery({
    queryKey: TAG_LIST_READ.queryKey,
    queryFn: ({ signal }) => getJson(TAG_LIST_READ.path, TAG_LIST_READ.schema, signal),
  });
}
