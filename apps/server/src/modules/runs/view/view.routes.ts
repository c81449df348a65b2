import {
  BackendRunViewSchema,
  ErrorBodySchema,
  FrontendRunViewSchema,
  RunKeyParamsSchema,
  RunViewQuerySchema,
} from "@assay/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { getBackendView, getFrontendView, type RunViewContext } from "./view.service.js";
import { KEEP_ANSWER } from "../../../http/answer-cache.js";

const tags = ["runs"];
const errors = { 400: ErrorBodySchema, 404: ErrorBodySchema };
const description =
  "What the results dialog shows, one page at a time: final results only, the card's fields " +
  "as rows of `columns`, failure text cut (the whole is in the result's detail), the counts and " +
  "Failed Summary of the whole run, the filters applied on the server. The spec's run detail " +
  "stays for API clients that want every field of every attempt.";

/** The run views of the results dialogs (docs/performance.md, "Large runs"). */
export const runViewRoutes =
  (ctx: RunViewContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      "/v1/test-runs/:key/view",
      {
        config: KEEP_ANSWER,
        schema: {
          tags,
          summary: "A frontend run for its results dialog: compact, paged, filtered",
          description,
          params: RunKeyParamsSchema,
          querystring: RunViewQuerySchema,
          response: { 200: FrontendRunViewSchema, ...errors },
        },
      },
      async (request) => getFrontendView(ctx, request.params.key, request.query),
    );

    app.get(
      "/v1/api-test-run/:key/view",
      {
        config: KEEP_ANSWER,
        schema: {
          tags,
          summary: "A backend run for its results dialog: compact, paged, filtered",
          description,
          params: RunKeyParamsSchema,
          querystring: RunViewQuerySchema,
          response: { 200: BackendRunViewSchema, ...errors },
        },
      },
      async (request) => getBackendView(ctx, request.params.key, request.query),
    );
  };
