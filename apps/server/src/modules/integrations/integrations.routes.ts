import {
  ErrorBodySchema,
  IntegrationsStatusSchema,
  JiraReleaseVersionsSchema,
  SpiraReleasesSchema,
  TicketDetailsBodySchema,
  TicketDetailsSchema,
} from "@assay/core";
import rateLimit from "@fastify/rate-limit";
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
  type Trackers,
} from "./integrations.service.js";
import { ticketLookups } from "./ticket-details.js";
import { requestSync, requirementsSource } from "./integrations.sync.js";
import { principalLabel } from "../traceability/traceability.service.js";

const tags = ["integrations"];
const tracker = { 502: ErrorBodySchema, 503: ErrorBodySchema };

export interface IntegrationsRoutesOptions {
  db: Db;
  trackers: Trackers;
  profile: ProfileDeps;
  jobs: Jobs;
  /** The catalogue's ticketPattern: the only keys ticket details are looked up for. */
  ticketPattern: string;
}

/**
 * Anonymous ticket lookups per address and minute (public read mode): each new key costs a Jira
 * call. Signed-in callers are not counted; a run's page asks once per chunk of its keys.
 */
export const ANONYMOUS_LOOKUPS_PER_MINUTE = 30;

/** The issue-tracker and release service (spec §7) and the trackers' state. */
export const integrationsRoutes =
  ({
    db,
    trackers,
    profile,
    jobs,
    ticketPattern,
  }: IntegrationsRoutesOptions): FastifyPluginAsyncZod =>
  async (app) => {
    const ticketDetails = ticketLookups({ db, trackers, ticketPattern });
    // Only routes that ask for it (config.rateLimit) are limited.
    await app.register(rateLimit, { global: false });
    app.post(
      "/v1/jira/details",
      {
        // A read in POST's clothing (the key list can be long): same access as the results.
        config: {
          access: "read",
          // After the access check, so a signed-in caller (request.principal) is let through.
          rateLimit: {
            max: ANONYMOUS_LOOKUPS_PER_MINUTE,
            timeWindow: 60_000,
            hook: "preHandler",
            allowList: (request) => request.principal !== undefined,
            errorResponseBuilder: (_request, context) =>
              new AppError(
                429,
                "too_many_lookups",
                `Ticket details were asked ${context.max} times in a minute from your address without sign-in; wait ${Math.ceil(context.ttl / 1000)} s or sign in.`,
              ),
          },
        },
        schema: {
          tags,
          summary: "Summary and status of tickets, looked up in Jira in one batch and cached",
          description:
            "Send the upper-cased keys; each must match the catalogue's ticketPattern (else 400). Unknown keys are left out of the answer. Answers, found or not, come from the cache until ASSAY_TICKET_CACHE_MINUTES old, then are removed. Without sign-in, at most 30 calls a minute per address (429 with Retry-After).",
          body: TicketDetailsBodySchema,
          response: {
            200: TicketDetailsSchema,
            400: ErrorBodySchema,
            429: ErrorBodySchema,
            ...tracker,
          },
        },
      },
      async (request) => ticketDetails(request.body),
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
