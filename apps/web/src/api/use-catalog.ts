import { CatalogSchema } from "@assay/core";
import { useQuery } from "@tanstack/react-query";
import { getJson } from "./client";
import { queryKeys } from "./query-keys";

/** The option lists and links of assay.config.yaml (GET /v1/catalog), shared by every screen. */
export function useCatalog() {
  return useQuery({
    queryKey: queryKeys.catalog,
    queryFn: ({ signal }) => getJson("/v1/catalog", CatalogSchema, signal),
    // The server reads the catalogue once at start-up, so a loaded copy stays true for the page.
    staleTime: Infinity,
  });
}
