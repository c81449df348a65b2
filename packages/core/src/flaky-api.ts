import { z } from "zod";

/**
 * The flaky tests API (issue 35; the list's fields are the issue's, CI jobs read them): tests
 * ranked by their exponentially weighted flip rate per job context, one test's score with its
 * evidence, and the screen's trend and '@unstable' suggestions. camelCase (the spec names none).
 */

export const FLAKY_LIST_MAX = 500;

const text = (description: string) =>
  z.string().trim().min(1).max(200).optional().describe(description);

export const FlakyQuerySchema = z.strictObject({
  family: z
    .enum(["frontend", "backend"], { error: "family must be frontend or backend" })
    .optional(),
  platform: text("Only this platform (a result's platform, e.g. chrome)"),
  branch: text("Only this branch"),
  limit: z.coerce
    .number({ error: `limit must be a whole number from 1 to ${FLAKY_LIST_MAX}` })
    .int(`limit must be a whole number from 1 to ${FLAKY_LIST_MAX}`)
    .min(1, `limit must be a whole number from 1 to ${FLAKY_LIST_MAX}`)
    .max(FLAKY_LIST_MAX, `limit must be a whole number from 1 to ${FLAKY_LIST_MAX}`)
    .default(50),
});
export type FlakyQuery = z.infer<typeof FlakyQuerySchema>;

export const FlakyContextSchema = z.object({
  family: z.string(),
  platform: z.string().nullable(),
  branch: z.string().nullable(),
  site: z.string().nullable().describe("nora_site"),
  environment: z.string().nullable().describe("The run's env"),
});
export type FlakyContext = z.infer<typeof FlakyContextSchema>;

const rate = (description: string) => z.number().min(0).max(1).describe(description);

export const FlakyTestSchema = z.object({
  testId: z.number().describe("Stable test id (TC{id})"),
  name: z.string(),
  score: rate("Exponentially weighted flip rate: newest results weigh most"),
  flipRate: rate("Flips / (results - 1); a pass on retry counts as a flip"),
  failureRate: rate("Failures / results"),
  failureRateLow: rate("Wilson 95% interval, low end"),
  failureRateHigh: rate("Wilson 95% interval, high end"),
  retriesPassed: z.number().describe("Results that passed on a retry in the same run"),
  results: z.number().describe("Results in the window (at most the configured N)"),
  lastFlipRunKey: z.string().nullable().describe("The run of the newest flip"),
  context: FlakyContextSchema.describe("The job the window belongs to"),
  outcomes: z.string().describe("The window, oldest first: p passed, f failed, r passed on retry"),
});
export type FlakyTest = z.infer<typeof FlakyTestSchema>;
export const FlakyListSchema = z.array(FlakyTestSchema);

export const FlakyTestParamsSchema = z.object({
  testId: z
    .string()
    .regex(/^\d{1,15}$/, "The test id must be a number, e.g. 1000042")
    .transform(Number)
    .describe("Stable test id"),
});

export const FlakyRunSchema = z.object({
  runKey: z.string(),
  at: z.string().describe("When the run was made (UTC)"),
  outcome: z.enum(["p", "f", "r"]),
  flipped: z.boolean(),
});

export const FlakyGroupSchema = z.object({
  id: z.number().describe("Failure group (GET /v1/failure-groups/{id})"),
  message: z.string(),
  failures: z.number().describe("This test's failures in the window in this group"),
});

export const FlakyEvidenceSchema = FlakyTestSchema.extend({
  flaky: z.boolean().describe("Score at or above the threshold, over at least minResults results"),
  runs: z.array(FlakyRunSchema).describe("The window, oldest first"),
  groups: z.array(FlakyGroupSchema).describe("Triage's failure groups of its failures"),
});
export type FlakyEvidence = z.infer<typeof FlakyEvidenceSchema>;

export const FlakyDetailSchema = z.object({
  testId: z.number(),
  threshold: z.number(),
  window: z.number(),
  minResults: z.number().describe("ASSAY_FLAKY_MIN_RESULTS: fewer results are not called flaky"),
  contexts: z.array(FlakyEvidenceSchema).describe("Each job context, highest score first"),
});
export type FlakyDetail = z.infer<typeof FlakyDetailSchema>;

export const FlakySummarySchema = z.object({
  threshold: z.number().describe("ASSAY_FLAKY_THRESHOLD"),
  window: z.number().describe("ASSAY_FLAKY_WINDOW: results per test and context"),
  minResults: z.number().describe("ASSAY_FLAKY_MIN_RESULTS: fewer results are not called flaky"),
  trend: z
    .array(z.object({ day: z.string(), family: z.string(), count: z.number() }))
    .describe("Flaky tests (test and context) at the end of each UTC day, last 30 days"),
  stableUnstable: z
    .array(z.object({ testId: z.number(), name: z.string(), results: z.number() }))
    .describe("Tests tagged '@unstable' that passed their last N results in every context"),
});
export type FlakySummary = z.infer<typeof FlakySummarySchema>;
