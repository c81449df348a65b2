import {
  ApiLogPageSchema,
  ApiLogQuerySchema,
  BackendResultDetailSchema,
  BackendRunDetailSchema,
  BackendRunPageSchema,
  ErrorBodySchema,
  ForceQuerySchema,
  FrontendResultDetailSchema,
  FrontendRunDetailSchema,
  FrontendRunPageSchema,
  LoadRunDetailSchema,
  LoadRunPageSchema,
  ResultParamsSchema,
  RunKeyParamsSchema,
  RunListQuerySchema,
} from "@assay/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { getBackendResult, getFrontendResult } from "./results.service.js";
import {
  getApiLog,
  getBackendRun,
  getFrontendRun,
  getLoadRun,
  listBackendRuns,
  listFrontendRuns,
  listLoadRuns,
  backendCacheKey,
  type RunsContext,
} from "./runs.service.js";
import { RunDetailCache } from "./run-detail-cache.js";
import { sendOkAsBuilt } from "./sent-as-built.js";
import { sendRunDetail } from "./send-detail.js";
import { KEEP_ANSWER } from "../../http/answer-cache.js";

const tags = ["runs"];
const NotModifiedSchema = z
  .null()
  .describe("Unchanged since the ETag sent in If-None-Match: no body");
/**
 * The spec's clients call the lists and the API run as ".../?force=true": the slash form is
 * served too, and left out of the OpenAPI document.
 */
const withSlash = (url: string) => [url, `${url}/`];
const listErrors = { 400: ErrorBodySchema };
const itemErrors = { 400: ErrorBodySchema, 404: ErrorBodySchema };

/** Runs and their results, read side (spec section 7): lists, run details, result details. */
export const runsRoutes =
  (ctx: RunsContext): FastifyPluginAsyncZod =>
  async (app) => {
    for (const url of withSlash("/v1/test-runs")) {
      app.get(
        url,
        {
          config: KEEP_ANSWER,
          schema: {
            tags,
            hide: url.endsWith("/"),
            summary: "Frontend runs, newest first, one page",
            querystring: RunListQuerySchema,
            response: { 200: FrontendRunPageSchema, ...listErrors },
          },
        },
        async (request) => listFrontendRuns(ctx, request.query),
      );
    }

    for (const url of withSlash("/v1/api-test-runs")) {
      app.get(
        url,
        {
          config: KEEP_ANSWER,
          schema: {
            tags,
            hide: url.endsWith("/"),
            summary: "Backend (API) runs, newest first, one page",
            querystring: RunListQuerySchema,
            response: { 200: BackendRunPageSchema, ...listErrors },
          },
        },
        async (request) => listBackendRuns(ctx, request.query),
      );
    }

    for (const url of withSlash("/v1/load-test-runs")) {
      app.get(
        url,
        {
          config: KEEP_ANSWER,
          schema: {
            tags,
            hide: url.endsWith("/"),
            summary: "Load runs, newest first, one page",
            querystring: RunListQuerySchema,
            response: { 200: LoadRunPageSchema, ...listErrors },
          },
        },
        async (request) => listLoadRuns(ctx, request.query),
      );
    }

    const detailCache = new RunDetailCache();
    app.get(
      "/v1/test-runs/:key",
      {
        schema: {
          tags,
          summary: "A frontend run and all its results (every attempt)",
          description:
            "Answers carry an ETag: a request with If-None-Match gets 304 while the run, its " +
            "results and the '@unstable' tag are unchanged. force=true rebuilds the answer.",
          params: RunKeyParamsSchema,
          querystring: ForceQuerySchema,
          response: { 200: FrontendRunDetailSchema, 304: NotModifiedSchema, ...itemErrors },
        },
        serializerCompiler: sendOkAsBuilt,
      },
      async (request, reply) => {
        const { key } = request.params;
        const answer = await getFrontendRun(ctx, key, detailCache, request.query.force);
        return sendRunDetail(request, reply, answer, { cache: detailCache, key });
      },
    );

    app.get(
      "/v1/test-detail/:key/:id",
      {
        schema: {
          tags,
          summary: "One frontend result with steps, screenshots, script and logs",
          params: ResultParamsSchema,
          response: { 200: FrontendResultDetailSchema, ...itemErrors },
        },
      },
      async (request) => getFrontendResult(ctx, request.params.key, request.params.id),
    );

    for (const url of withSlash("/v1/api-test-run/:key")) {
      app.get(
        url,
        {
          schema: {
            tags,
            hide: url.endsWith("/"),
            summary: "A backend run and all its results",
            description:
              "Answers carry an ETag: a request with If-None-Match gets 304 while the run and its " +
              "results are unchanged. force=true rebuilds the answer.",
            params: RunKeyParamsSchema,
            querystring: ForceQuerySchema,
            response: { 200: BackendRunDetailSchema, 304: NotModifiedSchema, ...itemErrors },
          },
          serializerCompiler: sendOkAsBuilt,
        },
        async (request, reply) => {
          const { key } = request.params;
          const answer = await getBackendRun(ctx, key, detailCache, request.query.force);
          return sendRunDetail(request, reply, answer, {
            cache: detailCache,
            key: backendCacheKey(key),
          });
        },
      );
    }

    app.get(
      "/v1/api-test-detail/:key/:id",
      {
        schema: {
          tags,
          summary: "One backend result with the API requests it made",
          params: ResultParamsSchema,
          response: { 200: BackendResultDetailSchema, ...itemErrors },
        },
      },
      async (request) => getBackendResult(ctx, request.params.key, request.params.id),
    );

    app.get(
      "/v1/api-test-run/api-log/:key",
      {
        schema: {
          tags,
          summary: "A backend run's API requests, one page, in order",
          params: RunKeyParamsSchema,
          querystring: ApiLogQuerySchema,
          response: { 200: ApiLogPageSchema, ...itemErrors },
        },
      },
      async (request) => getApiLog(ctx, request.params.key, request.query),
    );

    app.get(
      "/v1/load-test-runs/:key",
      {
        schema: {
          tags,
          summary: "A load run and its per-endpoint statistics",
          params: RunKeyParamsSchema,
          response: { 200: LoadRunDetailSchema, ...itemErrors },
        },
      },
      async (request) => getLoadRun(ctx, request.params.key),
    );
  };
