import { ErrorBodySchema, LoadTrendSchema, TrendParamsSchema, TrendQuerySchema } from "@assay/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { TrendSettings } from "../../config-trends.js";
import type { Db } from "../../db/pool.js";
import { loadTrend } from "./trends.service.js";

/** Load runs over time (issue 35): one job's endpoints across its runs, with regressions. */
export const trendsRoutes =
  (deps: { db: Db; settings: TrendSettings }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      "/v1/load-test-runs/:key/trends",
      {
        schema: {
          tags: ["trends"],
          summary:
            "Per endpoint, across the load runs of this run's job up to it: p50, p95, requests/s and error rate, with regressions flagged",
          params: TrendParamsSchema,
          querystring: TrendQuerySchema,
          response: {
            200: LoadTrendSchema,
            400: ErrorBodySchema,
            401: ErrorBodySchema,
            404: ErrorBodySchema,
          },
        },
      },
      async (request) => loadTrend(deps.db, deps.settings, request.params.key, request.query),
    );
  };
