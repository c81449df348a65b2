import { z } from "zod";

/**
 * The Daily Run Scheduler's API (spec sections 3 "Setting", 5 "Settings", 7): GET and POST
 * /v1/setting, PUT and DELETE /v1/setting/{id} with the spec's fields id, name, description and
 * isActive (0 or 1). Beyond the spec each setting is a schedule: when it runs (a cron expression
 * in a time zone) and what it launches (a build template); POST /v1/setting/{id}/run runs it now.
 */

/** Page sizes of the table (spec section 9: 25, options 25 and 50). */
export const SETTING_PAGE_SIZES = [25, 50] as const;
export const DEFAULT_SETTING_PAGE_SIZE = 25;
export const SETTING_NAME_MAX_LENGTH = 200;
export const SETTING_DESCRIPTION_MAX_LENGTH = 2000;
/** Largest build payload a schedule keeps (JSON text). */
export const BUILD_PAYLOAD_MAX_BYTES = 16_384;

export const SettingIdParamsSchema = z.object({
  id: z
    .string()
    .regex(/^\d{1,15}$/, "The id must be a number, e.g. 12")
    .transform(Number)
    .describe("The setting's id"),
});

/** The spec's lookup: 0 False, 1 True. */
export const IsActiveSchema = z
  .union([z.literal(0), z.literal(1)], { error: "isActive must be 0 (False) or 1 (True)" })
  .describe("0 False, 1 True");

export const BuildTemplateSchema = z
  .strictObject({
    family: z.enum(["frontend", "backend", "load"]).describe("Which Create Build dialog"),
    region: z.enum(["US", "CHINA"]).default("US").describe("Build region (frontend)"),
    payload: z
      .record(z.string(), z.unknown())
      .refine(
        (payload) => JSON.stringify(payload).length <= BUILD_PAYLOAD_MAX_BYTES,
        `payload must be at most ${BUILD_PAYLOAD_MAX_BYTES} bytes of JSON`,
      )
      .describe("The Create Build dialog's payload, sent as it is"),
  })
  .describe("What the schedule launches");
export type BuildTemplate = z.infer<typeof BuildTemplateSchema>;

const name = z
  .string({ error: "Name is required" })
  .trim()
  .min(1, "Name is required and must not be empty")
  .max(SETTING_NAME_MAX_LENGTH, `Name must be at most ${SETTING_NAME_MAX_LENGTH} characters`);

/** A cron expression of five fields (minute hour day month weekday), checked by the server. */
const cron = z
  .string()
  .trim()
  .min(1, "cron must not be empty; send null for no schedule")
  .max(200)
  .nullable()
  .describe("When it runs: 5-field cron, e.g. '0 2 * * *' for every day at 02:00; null: never");

/** How a schedule's webhook is sent: Slack's incoming-webhook JSON ({text}) or Assay's own JSON. */
export const WebhookFormatSchema = z
  .enum(["slack", "json"], { error: "webhookFormat must be slack or json" })
  .describe("slack: Slack-compatible {text}; json: the run's summary as a JSON object");
export type WebhookFormat = z.infer<typeof WebhookFormatSchema>;
export const WEBHOOK_URL_MAX_LENGTH = 2000;

/**
 * What GET /v1/setting answers beyond the writable fields. A client that PUTs back the object it
 * read sends them; they are accepted and ignored (the server owns them), while a field that is
 * neither writable nor one of these is still refused.
 */
const READ_ONLY_SETTING_FIELDS = Object.fromEntries(
  [
    "id",
    "webhook",
    "scheduleText",
    "nextRuns",
    "recentSlots",
    "createdBy",
    "updatedBy",
    "updatedAt",
  ].map((key) => [key, z.unknown().optional().describe("Read-only (as GET answers it); ignored")]),
) as Record<
  | "id"
  | "webhook"
  | "scheduleText"
  | "nextRuns"
  | "recentSlots"
  | "createdBy"
  | "updatedBy"
  | "updatedAt",
  z.ZodOptional<z.ZodUnknown>
>;

export const SettingBodySchema = z.strictObject({
  name,
  description: z.string().trim().max(SETTING_DESCRIPTION_MAX_LENGTH).default(""),
  isActive: IsActiveSchema.default(1),
  cron: cron.default(null),
  timeZone: z.string().trim().min(1).max(100).default("UTC").describe("IANA time zone"),
  template: BuildTemplateSchema.nullable().default(null),
  rerunFailures: z
    .boolean()
    .default(false)
    .describe("Rerun the failures once with the rerun-failed executor name"),
  webhookUrl: z
    .string()
    .trim()
    .min(1, "webhookUrl must not be empty; send null for no webhook")
    .max(WEBHOOK_URL_MAX_LENGTH, `webhookUrl must be at most ${WEBHOOK_URL_MAX_LENGTH} characters`)
    .nullable()
    .optional()
    .describe(
      "https URL that receives the run's summary when it ends; null: none; left out: unchanged (PUT) or none (POST)",
    ),
  webhookFormat: WebhookFormatSchema.optional().describe(
    "slack or json; left out: unchanged (PUT) or json",
  ),
  ...READ_ONLY_SETTING_FIELDS,
});
export type SettingBody = z.infer<typeof SettingBodySchema>;
export type SettingBodyInput = z.input<typeof SettingBodySchema>;

export const SlotOutcomeSchema = z.enum(["launched", "failed", "missed", "unavailable"]);
export type SlotOutcome = z.infer<typeof SlotOutcomeSchema>;

export const ScheduleSlotSchema = z.object({
  slotAt: z.iso.datetime({ offset: true }).describe("The slot (or the time of a Run now)"),
  kind: z.enum(["scheduled", "manual"]),
  outcome: SlotOutcomeSchema.nullable().describe("null while the launch is under way"),
  message: z.string().nullable(),
  buildId: z.string().nullable(),
  testRunKey: z.string().nullable(),
  /** The launched build's status (IN_PROGRESS, SUCCEEDED, FAILED, ...); null without a build. */
  buildStatus: z.string().nullable(),
  /** The automatic rerun of the first build's failures, when one was launched. */
  rerunBuildId: z.string().nullable(),
  /** Why no rerun was launched (nothing failed, launch refused), when the schedule asks for one. */
  rerunMessage: z.string().nullable(),
  /** The webhook delivery of the run's summary; null: not sent (no webhook, or the run goes on). */
  notifyState: z.enum(["pending", "delivered", "failed"]).nullable(),
  notifyMessage: z.string().nullable(),
});
export type ScheduleSlot = z.infer<typeof ScheduleSlotSchema>;

export const SettingSchema = z.object({
  id: z.int().positive(),
  name: z.string(),
  description: z.string(),
  isActive: IsActiveSchema,
  cron: z.string().nullable(),
  timeZone: z.string(),
  template: BuildTemplateSchema.nullable(),
  rerunFailures: z.boolean(),
  /** The webhook; its URL in full only for administrators, else its origin and "/…". */
  webhook: z
    .object({ url: z.string(), format: WebhookFormatSchema, masked: z.boolean() })
    .nullable(),
  /** The schedule in words, e.g. "At 02:00 AM (Europe/Berlin)"; null without a cron. */
  scheduleText: z.string().nullable(),
  /** The next three run times (UTC ISO) while active. */
  nextRuns: z.array(z.iso.datetime({ offset: true })),
  /** The latest slots, newest first (at most five). */
  recentSlots: z.array(ScheduleSlotSchema),
  createdBy: z.string().nullable(),
  updatedBy: z.string().nullable(),
  updatedAt: z.iso.datetime({ offset: true }),
});
export type Setting = z.infer<typeof SettingSchema>;

export const SettingListSchema = z.array(SettingSchema);
export const DeletedSettingSchema = z.object({ id: z.int().positive(), deleted: z.literal(true) });
