import { z } from "zod";
import { LinkedBugSchema } from "./traceability-api.js";

/**
 * The issue-tracker and release service (spec sections 3 and 7): ticket details in one batched
 * call, the Jira and Spira release lists of the OQ dialog, and which tracker answers them.
 */

/** Most ticket keys one details call takes: a 10,000-result run has far fewer distinct ones. */
export const TICKET_DETAILS_MAX_KEYS = 1000;

/** POST /v1/jira/details: the upper-cased ticket keys (spec: "a list of upper-cased ticket ids"). */
export const TicketDetailsBodySchema = z
  .array(
    z
      .string()
      .max(100, "a ticket key has at most 100 characters")
      .regex(
        /^[A-Z][A-Z0-9_]*-\d+$/,
        "each ticket key is upper-cased PROJECT-NUMBER, such as NXL-1234",
      ),
  )
  .min(1, "send at least one ticket key")
  .max(
    TICKET_DETAILS_MAX_KEYS,
    `send at most ${TICKET_DETAILS_MAX_KEYS} keys per call (split larger lists)`,
  );

/** A ticket as the spec reads it: key, fields.summary, fields.status.name (Jira's own shape). */
export const TicketDetailSchema = LinkedBugSchema;
export type TicketDetail = z.infer<typeof TicketDetailSchema>;

/** Known tickets only: a key Jira does not know (or hides) is left out, as Jira's bulk fetch does. */
export const TicketDetailsSchema = z.array(TicketDetailSchema);

export const JiraReleaseVersionSchema = z.object({
  name: z.string(),
  released: z.boolean(),
  releaseDate: z.string().nullable().describe("yyyy-mm-dd, when Jira has one"),
});
export const JiraReleaseVersionsSchema = z.array(JiraReleaseVersionSchema);
export type JiraReleaseVersion = z.infer<typeof JiraReleaseVersionSchema>;

/** Spec: Spira releases (ReleaseId, FullName). */
export const SpiraReleaseSchema = z.object({
  ReleaseId: z.int(),
  FullName: z.string(),
});
export const SpiraReleasesSchema = z.array(SpiraReleaseSchema);
export type SpiraRelease = z.infer<typeof SpiraReleaseSchema>;

const TrackerStateSchema = z.object({
  configured: z.boolean(),
  /** jira/spira: a real server; demo: the built-in fake the demo starts on this machine. */
  kind: z.enum(["real", "demo"]).nullable(),
  /** The server's origin, shown so a user knows where figures came from. */
  origin: z.string().nullable(),
});

export const SyncStateSchema = z.object({
  // Optional: answers of servers from before the Spira sync still read.
  tracker: z
    .enum(["jira", "spira"])
    .nullable()
    .optional()
    .describe("Which tracker the requirements sync reads (null: none configured)"),
  state: z.enum(["never", "queued", "running", "succeeded", "failed"]),
  progress: z.string().nullable().describe("e.g. '120 of 500 requirements'"),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  lastSuccessAt: z.string().nullable(),
  error: z.string().nullable().describe("Why the last sync failed; the last good data is kept"),
});
export type SyncState = z.infer<typeof SyncStateSchema>;

/** GET /v1/integrations: which trackers answer, and the requirements sync's state. */
export const IntegrationsStatusSchema = z.object({
  jira: TrackerStateSchema.extend({
    requirementsSync: z.boolean().describe("A requirements JQL is set, so the matrix can sync"),
  }),
  spira: TrackerStateSchema.extend({
    requirementsSync: z
      .boolean()
      .optional()
      .describe("The matrix's requirements are synced from the Spira project"),
  }),
  sync: SyncStateSchema,
});
export type IntegrationsStatus = z.infer<typeof IntegrationsStatusSchema>;

export const NOT_CONFIGURED = {
  jira: "Jira is not configured: set ASSAY_JIRA_URL and its credentials (docs/integrations.md).",
  spira:
    "Spira is not configured: set ASSAY_SPIRA_URL and ASSAY_SPIRA_PROJECT_ID (docs/integrations.md).",
} as const;
