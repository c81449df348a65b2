import {
  IntegrationsStatusSchema,
  JiraReleaseVersionsSchema,
  SpiraReleasesSchema,
  TICKET_DETAILS_MAX_KEYS,
  TicketDetailsSchema,
  type TicketDetail,
} from "@assay/core";
import { useQuery } from "@tanstack/react-query";
import { getJson, sendJson } from "./client";
import { queryKeys } from "./query-keys";

/** Which Jira and Spira answer (real or the demo's) and the last requirements sync. */
export function useIntegrations() {
  return useQuery({
    queryKey: queryKeys.integrations,
    queryFn: ({ signal }) => getJson("/v1/integrations", IntegrationsStatusSchema, signal),
  });
}

/**
 * The details of `keys` (upper-cased, distinct, sorted by the caller): one POST per 1,000 keys,
 * which the server answers from its cache or one batched Jira lookup. Not retried: a 503 'not
 * configured' or a 502 stays as it is, and the screen says so.
 */
export function useTicketDetails(keys: readonly string[], enabled = true) {
  return useQuery({
    queryKey: queryKeys.ticketDetails(keys.join(",")),
    queryFn: async () => {
      const found: TicketDetail[] = [];
      for (let i = 0; i < keys.length; i += TICKET_DETAILS_MAX_KEYS) {
        const chunk = keys.slice(i, i + TICKET_DETAILS_MAX_KEYS);
        found.push(...(await sendJson("POST", "/v1/jira/details", chunk, TicketDetailsSchema)));
      }
      return new Map(found.map((ticket) => [ticket.key, ticket]));
    },
    enabled: enabled && keys.length > 0,
    retry: false,
    staleTime: 5 * 60_000,
  });
}

/** The Jira project's versions for the OQ dialog's Jira release selector. */
export function useJiraReleaseVersions(enabled = true) {
  return useQuery({
    queryKey: queryKeys.jiraReleaseVersions,
    queryFn: ({ signal }) =>
      getJson("/v1/jira/release-versions", JiraReleaseVersionsSchema, signal),
    enabled,
    retry: false,
  });
}

/** The Spira project's releases (asked with the user's own credentials) for the OQ dialog. */
export function useSpiraReleases(enabled = true) {
  return useQuery({
    queryKey: queryKeys.spiraReleases,
    queryFn: ({ signal }) => getJson("/v1/spira/releases", SpiraReleasesSchema, signal),
    enabled,
    retry: false,
  });
}
