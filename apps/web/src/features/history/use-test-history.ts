import { HistorySchema } from "@assay/core";
import { useQuery } from "@tanstack/react-query";
import { getJson } from "../../api/client";
import { queryKeys } from "../../api/query-keys";

/** A test's past final results, newest first (GET /v1/history/{id}); idle without an id. */
export function useTestHistory(testId: number | undefined) {
  return useQuery({
    queryKey: queryKeys.testHistory(testId ?? -1),
    queryFn: ({ signal }) => getJson(`/v1/history/${testId}`, HistorySchema, signal),
    enabled: testId !== undefined,
  });
}
