import { PreviousRunSchema } from "@assay/core";
import { useQuery } from "@tanstack/react-query";
import { getJson } from "../../../api/client";
import { queryKeys } from "../../../api/query-keys";

/** The run before `key` in its job (GET /v1/runs/{key}/previous), for its Compare button. */
export function usePreviousRun(key: string) {
  return useQuery({
    queryKey: queryKeys.previousRun(key),
    queryFn: ({ signal }) =>
      getJson(`/v1/runs/${encodeURIComponent(key)}/previous`, PreviousRunSchema, signal),
    enabled: key !== "",
    staleTime: 60_000,
  });
}
