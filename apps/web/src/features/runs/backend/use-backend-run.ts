import { ApiLogPageSchema, BackendResultDetailSchema, type API_LOG_PAGE_SIZES } from "@assay/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { getJson } from "../../../api/client";
import { queryKeys } from "../../../api/query-keys";

const enc = encodeURIComponent;

/** One of the API Requests dialog's page sizes (spec section 9: 100, 1000, 10000). */
export type ApiLogPageSize = (typeof API_LOG_PAGE_SIZES)[number];

/** One backend result with the API requests it made (GET /v1/api-test-detail/{key}/{id}). */
export function useBackendResultDetail(key: string, id: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.backendResult(key, id),
    queryFn: ({ signal }) =>
      getJson(`/v1/api-test-detail/${enc(key)}/${enc(id)}`, BackendResultDetailSchema, signal),
    enabled,
    // The opened row and its API requests read the same answer: one request, not one each.
    staleTime: 60_000,
  });
}

/**
 * One page of a run's API requests (GET /v1/api-test-run/api-log/{key}). The previous page stays
 * on screen while the next loads, so paging does not flash an empty table.
 */
export function useApiLog(key: string, page: number, pageSize: ApiLogPageSize, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.apiLog(key, page, pageSize),
    queryFn: ({ signal }) =>
      getJson(
        `/v1/api-test-run/api-log/${enc(key)}?page=${page}&page_size=${pageSize}`,
        ApiLogPageSchema,
        signal,
      ),
    enabled,
    placeholderData: keepPreviousData,
  });
}
