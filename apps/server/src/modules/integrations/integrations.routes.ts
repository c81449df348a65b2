import {
  ErrorBodySchema,
  IntegrationsStatusSchema,
  JiraReleaseVersionsSchema,
  SpiraReleasesSchema,
  TicketDetailsBodySchema,
  TicketDetailsSchema,
} from "@assay/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Db } from "../../db/pool.js";
import { AppError } from "../../errors.js";
import type { Jobs } from "../../jobs/jobs.js";
import {
  testManagementSecret,
  testManagementUser,
  type ProfileDeps,
} from "../profile/profile.service.js";
import {
  integrationsStatus,
  jiraReleaseVersions,
  spiraReleases,
  ticketDetails,
  type Trackers,
} from "./integrations.service.js";
import { requestSync, requirementsSource } from "./integrations.sync.js";
import { principalLabel } from "../traceability/traceability.service.js";

const tags = ["integrations"];
const tracker = { 502: ErrorBodySchema, 503: ErrorBodySchema };

export interface IntegrationsRoutesOptions {
  db: Db;
  trackers: Trackers;
  profile: ProfileDeps;
  jobs: Jobs;
}

/** The issue-tracker and release service (spec §7) and the trackers' state. */
export const integrationsRoutes =
  ({ db, trackers, profile, jobs }: IntegrationsRoutesOptions): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      "/v1/jira/details",
      {
        // A read in POST's clothing (the key list can be long): same access as the results.
        config: { access: "read" },
        schema: {
          tags,
          summary: "Summary and status of tickets, looked up in Jira in one batch and cached",
          description:
            "Send the upper-cased keys. Unknown keys are left out of the answer. Answers come from the cache until ASSAY_TICKET_CACHE_MINUTES old.",
          body: TicketDetailsBodySchema,
          response: { 200: TicketDetailsSchema, 400: ErrorBodySchema, ...tracker },
        },
      },
      async (request) => ticketDetails(db, trackers, request.body),
    );

    app.get(
      "/v1/jira/release-versions",
      {
        schema: {
          tags,
          summary: "The Jira project's versions (not archived), for the OQ dialog",
          response: { 200: JiraReleaseVersionsSchema, ...tracker },
        },
      },
      async () => jiraReleaseVersions(trackers),
    );

    app.get(
      "/v1/spira/releases",
      {
        config: { access: "user" },
        schema: {
          tags,
          summary: "The Spira project's active releases, asked with the user's own credentials",
          description:
            "Uses the Spira user and API key of the caller's profile, else the service account (ASSAY_SPIRA_USER). The key never leaves the server.",
          response: { 200: SpiraReleasesSchema, 400: ErrorBodySchema, ...tracker },
        },
      },
      async (request) => {
        const principal = request.principal;
        let own: { username: string; apiKey: string } | undefined;
        if (principal?.kind === "user") {
          const [username, apiKey] = await Promise.all([
            testManagementUser(profile.db, principal.id),
            testManagementSecret(profile, principal.id),
          ]);
          if (username && apiKey) own = { username, apiKey };
        }
        return spiraReleases(trackers, own);
      },
    );

    app.get(
      "/v1/integrations",
      {
        schema: {
          tags,
          summary: "Which Jira and Spira answer (real or the demo's), and the last sync",
          response: { 200: IntegrationsStatusSchema },
        },
      },
      async () => integrationsStatus(db, trackers),
    );

    app.post(
      "/v1/integrations/sync",
      {
        config: { access: "user" },
        schema: {
          tags,
          summary: "Sync the matrix's requirements from Jira or Spira now (a background job)",
          description:
            "Answers 202 at once; GET /v1/integrations shows the progress. A sync already queued or running is not doubled.",
          response: {
            202: IntegrationsStatusSchema,
            401: ErrorBodySchema,
            403: ErrorBodySchema,
            503: ErrorBodySchema,
          },
        },
      },
      async (request, reply) => {
        const source = requirementsSource(trackers);
        if (!source)
          throw new AppError(
            503,
            "not_configured",
            "The requirements sync needs Jira and a requirements JQL (ASSAY_JIRA_URL and ASSAY_JIRA_REQUIREMENTS_JQL), or Spira with its service account and ASSAY_SPIRA_REQUIREMENTS_SYNC=true (docs/integrations.md).",
          );
        await requestSync(db, jobs, source.tracker, principalLabel(request.principal));
        return reply.status(202).send(await integrationsStatus(db, trackers));
      },
    );
  };
