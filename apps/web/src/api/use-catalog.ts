import { CatalogSchema } from "@assay/core";
import { useQuery } from "@tanstack/react-query";
import { getJson } from "./client";
import { queryKeys } from "./query-keys";

/** The catalogue's read: useCatalog's, and the server's for a page it renders (first-screen.tsx). */
export const CATALOG_READ = {
  queryKey: queryKeys.catalog,
  path: "/v1/catalog",
  schema: CatalogSchema,
};

/** The option lists and links of assay.config.yaml (GET /v1/catalog), shared by every screen. */
export function useCatalog() {
  return useQuery({
    queryKey: CATALOG_READ.queryKey,
    queryFn: ({ signal }) => getJson(CATALOG_READ.path, CATALOG_READ.schema, signal),
    // The server reads the catalogue once at start-up, so a loaded copy stays true for the page.
    staleTime: Infinity,
  });
}
