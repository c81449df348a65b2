import {
  ErrorBodySchema,
  PreviousRunParamsSchema,
  PreviousRunSchema,
  RunDiffParamsSchema,
  RunDiffSchema,
} from "@assay/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { DiffSettings } from "../../config-diff.js";
import type { Db } from "../../db/pool.js";
import { checkRunScope } from "../auth/access.js";
import { diffRuns, previousRun } from "./diff.service.js";

const tags = ["diff"];
const errors = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
};

/**
 * The run diff (issue 35). Both routes are reads; a build's token (ASSAY_TOKEN, listed in
 * BUILD_TOKEN_ROUTES) may call them about its own run, so a CI job can compare the run it just
 * sent with the one before.
 */
export const diffRoutes =
  (deps: { db: Db; settings: DiffSettings }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      "/v1/runs/:a/diff/:b",
      {
        schema: {
          tags,
          summary:
            "What changed from run a to run b of one family: new failures, fixed, still failing, newly flaky, slower, added and removed tests",
          params: RunDiffParamsSchema,
          response: { 200: RunDiffSchema, ...errors },
        },
      },
      async (request) => {
        const { a, b } = request.params;
        const principal = request.principal;
        const own = principal?.kind === "service_token" ? principal.runKey : undefined;
        // A build's token: one of the two runs must be its own.
        checkRunScope(principal, own === a ? a : b);
        return diffRuns(deps.db, deps.settings, a, b);
      },
    );

    app.get(
      "/v1/runs/:key/previous",
      {
        schema: {
          tags,
          summary: "The run before this one in its job, to compare them",
          params: PreviousRunParamsSchema,
          response: { 200: PreviousRunSchema, ...errors },
        },
      },
      async (request) => {
        checkRunScope(request.principal, request.params.key);
        return previousRun(deps.db, request.params.key);
      },
    );
  };
