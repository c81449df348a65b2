import { FrontendResultDetailSchema } from "@assay/core";
import { useQuery } from "@tanstack/react-query";
import { getJson } from "./client";
import { queryKeys } from "./query-keys";

const enc = encodeURIComponent;

/** One frontend result with its steps and screenshots (GET /v1/test-detail/{key}/{id}). */
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

/** The URL of a stored object (a screenshot), each key segment encoded. */
export function objectUrl(key: string): string {
  return `/v1/objects/${key.split("/").map(enc).join("/")}`;
}
