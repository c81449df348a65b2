import { ErrorBodySchema, ReleaseReportQuerySchema, ReleaseReportSchema } from "@assay/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { releaseReport, type ReleasesDeps } from "./releases.service.js";

const tags = ["releases"];

/** The release service's report (spec §7 GET /releaseDetail): the Nora Releases screen. */
export const releasesRoutes =
  (deps: ReleasesDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      "/v1/release-detail",
      {
        schema: {
          tags,
          summary: "The Nora Releases report: OQ runs and incidents per release version",
          description:
            "One row per version of the Jira project (ASSAY_JIRA_PROJECT), oldest first: totalOQ (runs of the OQ builds started for it), incidentCount, incidentClose and incidentOpen (issues of ASSAY_JIRA_INCIDENT_JQL with that fixVersion; closed = Done status category), and the release notes link (ASSAY_RELEASE_NOTES_URL). `sources` says where each figure came from. 503 when Jira is not configured, 502 when it fails.",
          querystring: ReleaseReportQuerySchema,
          response: {
            200: ReleaseReportSchema,
            400: ErrorBodySchema,
            502: ErrorBodySchema,
            503: ErrorBodySchema,
          },
        },
      },
      async (request) => releaseReport(deps, request.query.view),
    );
  };
