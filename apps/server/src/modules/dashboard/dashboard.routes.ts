import {
  DailyChartSchema,
  DailyRunsQuerySchema,
  ErrorBodySchema,
  RerunListSchema,
  type Catalog,
} from "@assay/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Db } from "../../db/pool.js";
import { dailyChart, rerunList } from "./dashboard.service.js";
import { KEEP_ANSWER_A_MINUTE } from "../../http/answer-cache.js";

const tags = ["dashboard"];

/** The Dashboard's two reads: the daily chart (GRAPH) and the reruns of failures (TABLE). */
export const dashboardRoutes =
  (db: Db, catalog: Catalog): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      "/v1/dashboard/daily-runs",
      {
        config: KEEP_ANSWER_A_MINUTE,
        schema: {
          tags,
          summary: "Per-day totals of the daily robot's runs (the Dashboard's GRAPH)",
          description:
            "Sums the counts stored on each run of the catalogue's dailyRuns.executor, per UTC day, for the sites (frontend) or envs (backend) the catalogue puts under DEV or STAGE. Every day of the period is present; a day without runs is zeros.",
          querystring: DailyRunsQuerySchema,
          response: { 200: DailyChartSchema, 400: ErrorBodySchema },
        },
      },
      async (request) => dailyChart(db, catalog, request.query),
    );

    app.get(
      "/v1/dashboard/rerun-runs",
      {
        config: KEEP_ANSWER_A_MINUTE,
        schema: {
          tags,
          summary: "Runs of the automatic rerun of failures (the Dashboard's TABLE), newest first",
          querystring: DailyRunsQuerySchema,
          response: { 200: RerunListSchema, 400: ErrorBodySchema },
        },
      },
      async (request) => rerunList(db, catalog, request.query),
    );
  };
