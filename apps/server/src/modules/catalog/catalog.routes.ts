import { CatalogSchema, type Catalog } from "@assay/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

/** The option lists of assay.config.yaml, so that no list is hard-coded in the web app. */
export const catalogRoutes =
  (catalog: Catalog): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      "/v1/catalog",
      {
        schema: {
          tags: ["catalog"],
          summary: "Sites, languages, test subsets, load teams and the other configured lists",
          response: { 200: CatalogSchema },
        },
      },
      async () => catalog,
    );
  };
