import {
  ErrorBodySchema,
  FailsQuerySchema,
  HistoryQuerySchema,
  HistorySchema,
  RunHistoryQuerySchema,
  RunHistorySchema,
  RunKeyParamsSchema,
  TestIdParamsSchema,
  TopFailsSchema,
} from "@assay/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Db } from "../../db/pool.js";
import { getTestHistory, getTopFails } from "./history.service.js";
import { getRunHistory } from "./run-history.service.js";
import { KEEP_ANSWER, KEEP_ANSWER_A_MINUTE } from "../../http/answer-cache.js";

/**
 * Reads across runs (spec section 7): a test's history, the Top Fails list, and the recent
 * history of every test of a run (the results dialog's history icons and failure filters).
 */
export const historyRoutes =
  (db: Db): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      "/v1/history/:id",
      {
        config: KEEP_ANSWER,
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
        config: KEEP_ANSWER_A_MINUTE,
        schema: {
          tags: ["history"],
          summary: "Tests with the most failures in the last 2 months",
          querystring: FailsQuerySchema,
          response: { 200: TopFailsSchema, 400: ErrorBodySchema },
        },
      },
      async (request) => getTopFails(db, request.query),
    );

    app.get(
      "/v1/test-runs/:key/history",
      {
        config: KEEP_ANSWER,
        schema: {
          tags: ["history"],
          summary: "Recent history of every test of a frontend run, by test id, in one call",
          params: RunKeyParamsSchema,
          querystring: RunHistoryQuerySchema,
          response: { 200: RunHistorySchema, 400: ErrorBodySchema, 404: ErrorBodySchema },
        },
      },
      async (request) => getRunHistory(db, request.params.key, request.query),
    );
  };
