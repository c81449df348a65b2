import { InstanceSchema, type Instance } from "@assay/core";
import { useQuery } from "@tanstack/react-query";
import { getJson } from "./client";
import { queryKeys } from "./query-keys";

/** How often the app asks again while the demo data loads (a first start: one to three minutes). */
export const DEMO_LOADING_POLL_MS = 5_000;

const demoLoading = (instance: Instance | undefined) =>
  instance?.demo === true && instance.demo_loaded_at === null;

/** Facts about this installation (GET /v1/instance), such as whether it shows demo data. */
export function useInstance() {
  return useQuery({
    queryKey: queryKeys.instance,
    queryFn: ({ signal }) => getJson("/v1/instance", InstanceSchema, signal),
    // Whether the data is demo data changes only when the server's store is replaced; while the
    // demo loads, the app asks until it has loaded.
    staleTime: Infinity,
    refetchInterval: (query) => (demoLoading(query.state.data) ? DEMO_LOADING_POLL_MS : false),
  });
}
