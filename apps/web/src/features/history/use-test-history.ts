import { HistorySchema, MAX_HISTORY_LIMIT } from "@assay/core";
import { useQuery } from "@tanstack/react-query";
import { getJson } from "../../api/client";
import { queryKeys } from "../../api/query-keys";

/**
 * A test's past final results, newest first (GET /v1/history/{id}), as many as the API gives
 * (MAX_HISTORY_LIMIT: years of daily runs), so the pass rate is over all of them; idle without
 * an id.
 */
export function useTestHistory(testId: number | undefined) {
  return useQuery({
    queryKey: queryKeys.testHistory(testId ?? -1),
    queryFn: ({ signal }) =>
      getJson(`/v1/history/${testId}?limit=${MAX_HISTORY_LIMIT}`, HistorySchema, signal),
    enabled: testId !== undefined,
  });
}
