import { z } from "zod";

/**
 * Notifications when a run ends (issue 38): rules that say which runs (filters on the run's
 * fields), when (always, on failure, on recovery after a failure, on new failures) and where
 * (Slack, Microsoft Teams, email, a generic webhook). Secrets (webhook URLs, the SMTP password)
 * are write-only: answers say whether one is stored, never what it is.
 */

export const NOTIFY_CHANNELS = ["slack", "teams", "email", "webhook"] as const;
export const NotifyChannelSchema = z.enum(NOTIFY_CHANNELS).describe("Where the message goes");
export type NotifyChannel = z.infer<typeof NotifyChannelSchema>;

/** When a matching run is sent; new_failures reads triage's failure groups of the run. */
export const NOTIFY_WHEN = ["always", "failure", "recovery", "new_failures"] as const;
export const NotifyWhenSchema = z
  .enum(NOTIFY_WHEN)
  .describe(
    "always; failure: the run has failed tests; recovery: no failed tests after a matching run that had some; new_failures: the run has failure groups seen for the first time, or back after the job's last runs went without them (regressions)",
  );
export type NotifyWhen = z.infer<typeof NotifyWhenSchema>;

/** At most this many failures (or failure groups) in a message, each with its tests. */
export const NOTIFY_TOP_FAILURES = 5;

const optionalText = (what: string) => z.string().trim().min(1).max(200).optional().describe(what);

export const NotifyFiltersSchema = z
  .strictObject({
    family: z.enum(["frontend", "backend", "load"]).optional().describe("Run family"),
    platform: z.enum(["legacy", "nextGen"]).optional().describe("Frontend platform"),
    branch: optionalText("Exact branch"),
    site: optionalText("Exact site (nora_site)"),
    environment: optionalText("Exact environment (env)"),
    name: optionalText("Part of the run's name (job name), any case"),
  })
  .describe("Which runs: every given field must match; none given: every run");
export type NotifyFilters = z.infer<typeof NotifyFiltersSchema>;

const emailAddress = z.email("Each recipient must be an email address, e.g. qa@example.com");

export const NotifyEmailSchema = z
  .strictObject({
    host: z.string().trim().min(1, "The SMTP host is required").max(253),
    port: z.number().int().min(1).max(65535).default(587),
    secure: z.boolean().default(false).describe("TLS from the start (port 465); else STARTTLS"),
    user: z.string().max(200).optional(),
    from: emailAddress.describe("The sender"),
    to: z.array(emailAddress).min(1, "Give at least one recipient").max(50),
  })
  .describe("SMTP server and recipients (the password is sent apart, as secret)");
export type NotifyEmail = z.infer<typeof NotifyEmailSchema>;

export const NotifyRuleBodySchema = z.strictObject({
  name: z.string().trim().min(1, "Name is required").max(200),
  channel: NotifyChannelSchema,
  when: NotifyWhenSchema,
  filters: NotifyFiltersSchema.default({}),
  isActive: z.boolean().default(true),
  email: NotifyEmailSchema.optional().describe("Required for the email channel"),
  secret: z
    .string()
    .max(2000)
    .optional()
    .describe(
      "Slack, Teams, webhook: the webhook URL; email: the SMTP password. Left out on PUT keeps the stored one.",
    ),
});
export type NotifyRuleBody = z.infer<typeof NotifyRuleBodySchema>;

export const NOTIFY_DELIVERY_STATES = ["pending", "sent", "failed", "skipped"] as const;
export const NotifyDeliverySchema = z.object({
  runKey: z.string(),
  runName: z.string(),
  state: z.enum(NOTIFY_DELIVERY_STATES),
  attempts: z.number().int(),
  message: z.string().nullable().describe("Why it failed or was skipped; the HTTP status"),
  at: z.string().describe("When it was queued or last tried (UTC)"),
});
export type NotifyDelivery = z.infer<typeof NotifyDeliverySchema>;

export const NotifyRuleSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  channel: NotifyChannelSchema,
  when: NotifyWhenSchema,
  filters: NotifyFiltersSchema,
  isActive: z.boolean(),
  email: NotifyEmailSchema.nullable(),
  hasSecret: z.boolean().describe("Whether a webhook URL or SMTP password is stored"),
  target: z.string().nullable().describe("Where it goes, without secrets: a URL's origin"),
  source: z.enum(["screen", "config"]).describe("config: from assay.config.yaml, read-only"),
  updatedBy: z.string().nullable(),
  updatedAt: z.string(),
  deliveries: z.array(NotifyDeliverySchema).describe("The latest deliveries, newest first"),
});
export type NotifyRule = z.infer<typeof NotifyRuleSchema>;

export const NotifyRuleListSchema = z.object({
  rules: z.array(NotifyRuleSchema),
});
export type NotifyRuleList = z.infer<typeof NotifyRuleListSchema>;

export const NotifyRuleIdParamsSchema = z.object({
  id: z
    .string()
    .regex(/^\d{1,15}$/, "The id must be a number, e.g. 12")
    .transform(Number),
});

export const NotifyArchivedSchema = z.object({ id: z.number().int(), archived: z.literal(true) });
