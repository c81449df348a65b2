import {
  ErrorBodySchema,
  FailsQuerySchema,
  HistoryQuerySchema,
  HistorySchema,
  TestIdParamsSchema,
  TopFailsSchema,
} from "@assay/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Db } from "../../db/pool.js";
import { getTestHistory, getTopFails } from "./history.service.js";

/** Reads across runs (spec section 7): a test's history and the Top Fails list. */
export const historyRoutes =
  (db: Db): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      "/v1/history/:id",
      {
        schema: {
          tags: ["history"],
          summary: "A test's final results, newest first",
          params: TestIdParamsSchema,
          querystring: HistoryQuerySchema,
          response: { 200: HistorySchema, 400: ErrorBodySchema, 404: ErrorBodySchema },
        },
      },
      async (request) => getTestHistory(db, request.params.id, request.query),
    );

    app.get(
      "/v1/fails",
      {
        schema: {
          tags: ["history"],
          summary: "Tests with the most failures in the last 2 months",
          querystring: FailsQuerySchema,
          response: { 200: TopFailsSchema, 400: ErrorBodySchema },
        },
      },
      async (request) => getTopFails(db, request.query),
    );
  };
