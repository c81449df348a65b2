import { RunDiffSchema } from "@assay/core";
import { useQuery } from "@tanstack/react-query";
import { getJson } from "../../api/client";
import { queryKeys } from "../../api/query-keys";

/** What changed from run `a` to run `b` (GET /v1/runs/{a}/diff/{b}); stored runs do not change. */
export function useRunDiff(a: string, b: string) {
  return useQuery({
    queryKey: queryKeys.runDiff(a, b),
    queryFn: ({ signal }) =>
      getJson(
        `/v1/runs/${encodeURIComponent(a)}/diff/${encodeURIComponent(b)}`,
        RunDiffSchema,
        signal,
      ),
    enabled: a !== "" && b !== "",
    staleTime: 5 * 60_000,
  });
}
