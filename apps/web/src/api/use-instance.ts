import { InstanceSchema } from "@assay/core";
import { useQuery } from "@tanstack/react-query";
import { getJson } from "./client";
import { queryKeys } from "./query-keys";

/** Facts about this installation (GET /v1/instance), such as whether it shows demo data. */
export function useInstance() {
  return useQuery({
    queryKey: queryKeys.instance,
    queryFn: ({ signal }) => getJson("/v1/instance", InstanceSchema, signal),
    // Whether the data is demo data changes only when the server's store is replaced.
    staleTime: Infinity,
  });
}
