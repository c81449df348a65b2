import { LoadTrendSchema, TREND_DEFAULT_RUNS } from "@assay/core";
import { useQuery } from "@tanstack/react-query";
import { getJson } from "../../api/client";
import { queryKeys } from "../../api/query-keys";

/** A load run's job over time (GET /v1/load-test-runs/{key}/trends), up to that run. */
export function useLoadTrend(key: string, runs = TREND_DEFAULT_RUNS) {
  return useQuery({
    queryKey: queryKeys.loadTrend(key, runs),
    queryFn: ({ signal }) =>
      getJson(
        `/v1/load-test-runs/${encodeURIComponent(key)}/trends?runs=${runs}`,
        LoadTrendSchema,
        signal,
      ),
    enabled: key !== "",
    staleTime: 60_000,
  });
}
