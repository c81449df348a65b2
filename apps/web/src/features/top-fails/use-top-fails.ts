import { MAX_FAILS_LIMIT, TopFailsSchema } from "@assay/core";
import { useQuery } from "@tanstack/react-query";
import { getJson } from "../../api/client";
import { queryKeys } from "../../api/query-keys";

/**
 * Tests with the most failures in the last two months, most first (GET /v1/fails): as many as
 * the API gives, which the page's pager shows 15 at a time.
 */
export function useTopFails() {
  return useQuery({
    queryKey: queryKeys.topFails,
    queryFn: ({ signal }) => getJson(`/v1/fails?limit=${MAX_FAILS_LIMIT}`, TopFailsSchema, signal),
    // The server sorts already; sorting again keeps the rule "most failures first" true here.
    select: (rows) => [...rows].sort((a, b) => b.fail_count - a.fail_count || a.id - b.id),
  });
}
