import {
  ErrorBodySchema,
  FlakyDetailSchema,
  FlakyListSchema,
  FlakyQuerySchema,
  FlakySummarySchema,
  FlakyTestParamsSchema,
} from "@assay/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { FlakySettings } from "../../config-flaky.js";
import type { Db } from "../../db/pool.js";
import type { TriageDeps } from "../triage/pending.service.js";
import { flakySummary, flakyTest, flakyTests } from "./flaky.service.js";

const tags = ["flaky"];
const readErrors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema };

/** Flaky tests (issue 35): the ranking, one test's evidence, the screen's trend. Reads only. */
export const flakyRoutes =
  (db: Db, settings: FlakySettings, triage: TriageDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      "/v1/flaky-tests",
      {
        schema: {
          tags,
          summary:
            "Flaky tests, highest score first: per test and job context, over its last N results (CI jobs read it with their token)",
          querystring: FlakyQuerySchema,
          response: { 200: FlakyListSchema, ...readErrors },
        },
      },
      async (request) => flakyTests(db, request.query, settings),
    );

    app.get(
      "/v1/flaky-tests/summary",
      {
        schema: {
          tags,
          summary: "Flaky tests per day (30 days) and '@unstable' tests stable for their last N",
          response: { 200: FlakySummarySchema, ...readErrors },
        },
      },
      async () => flakySummary(db, settings),
    );

    app.get(
      "/v1/flaky-tests/:testId",
      {
        schema: {
          tags,
          summary:
            "A test's flaky score in each job context, with its evidence: runs, flips, retries, failure groups",
          params: FlakyTestParamsSchema,
          response: { 200: FlakyDetailSchema, ...readErrors },
        },
      },
      async (request) => flakyTest(db, request.params.testId, settings, triage),
    );
  };
