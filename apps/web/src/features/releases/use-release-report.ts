import { ReleaseReportSchema } from "@assay/core";
import { useQuery } from "@tanstack/react-query";
import { getJson } from "../../api/client";
import { queryKeys } from "../../api/query-keys";

/**
 * The whole report (view all), fetched once: the view select filters it on the screen with the
 * rule the server's `view` uses, so switching views costs no Jira round trip. Not retried: a
 * 503 'not configured' or a 502 stays as it is, and the screen says what to do.
 */
export function useReleaseReport() {
  return useQuery({
    queryKey: queryKeys.releaseReport,
    queryFn: ({ signal }) => getJson("/v1/release-detail?view=all", ReleaseReportSchema, signal),
    retry: false,
    staleTime: 5 * 60_000,
  });
}
