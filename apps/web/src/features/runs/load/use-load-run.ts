import { LoadRunDetailSchema } from "@assay/core";
import { useQuery } from "@tanstack/react-query";
import { getJson } from "../../../api/client";
import { queryKeys } from "../../../api/query-keys";

/** A load run and its per-endpoint statistics (GET /v1/load-test-runs/{key}), while `enabled`. */
export function useLoadRun(key: string, enabled = true) {
  return useQuery({
    queryKey: queryKeys.loadRun(key),
    queryFn: ({ signal }) =>
      getJson(`/v1/load-test-runs/${encodeURIComponent(key)}`, LoadRunDetailSchema, signal),
    enabled: enabled && key !== "",
  });
}
