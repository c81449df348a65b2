import { FrontendResultDetailSchema } from "@assay/core";
import { useQuery } from "@tanstack/react-query";
import { getJson } from "./client";
import { queryKeys } from "./query-keys";

const enc = encodeURIComponent;

/**
 * One frontend result with steps, screenshots and script (GET /v1/test-detail/{key}/{id}), for
 * the test detail dialog and the print view; nothing is asked until both are known.
 */
export function useTestDetail(key: string | undefined, id: string | undefined) {
  return useQuery({
    queryKey: queryKeys.testDetail(key ?? "", id ?? ""),
    queryFn: ({ signal }) =>
      getJson(
        `/v1/test-detail/${enc(key ?? "")}/${enc(id ?? "")}`,
        FrontendResultDetailSchema,
        signal,
      ),
    enabled: Boolean(key && id),
  });
}
