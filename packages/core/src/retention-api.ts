import { z } from "zod";

/**
 * Retention (issue 36), as the Setting screen shows it: the policy read from assay.config.yaml
 * (null when the file sets none: nothing is removed) and the latest pass with what it removed
 * and what it returned.
 */

const days = (what: string) =>
  z.number().int().nullable().describe(`${what}, in days; null: kept forever`);

export const RetentionPeriodsSchema = z.object({
  passedDetailsDays: days("Steps and attachments of passed and skipped results"),
  failedDetailsDays: days("Steps and attachments of failed results"),
  runsDays: days("Passed and skipped results; a run without failures goes whole"),
  failuresDays: days("Failed results and the run holding them"),
});
export type RetentionPeriods = z.infer<typeof RetentionPeriodsSchema>;

export const RetentionRuleSchema = RetentionPeriodsSchema.extend({
  family: z.enum(["frontend", "backend", "load"]).nullable().describe("null: every family"),
  branch: z
    .string()
    .nullable()
    .describe("Branch or pattern (* any characters); null: every branch"),
});
export type RetentionRule = z.infer<typeof RetentionRuleSchema>;

export const RetentionPolicySchema = z.object({
  schedule: z.string().describe("When the nightly pass runs (cron, UTC)"),
  default: RetentionPeriodsSchema.describe("Periods of runs no rule matches"),
  rules: z.array(RetentionRuleSchema).describe("The first matching rule decides a run's periods"),
});
export type RetentionPolicyView = z.infer<typeof RetentionPolicySchema>;

export const RetentionPassSchema = z.object({
  id: z.number().int(),
  trigger: z.enum(["nightly", "cli", "demo"]),
  state: z.enum(["running", "finished", "failed", "abandoned"]),
  startedAt: z.string().describe("ISO 8601"),
  finishedAt: z.string().nullable(),
  runs: z.number().int().describe("Runs removed whole"),
  results: z.number().int().describe("Results removed (rolled up into daily counts first)"),
  stepsTrimmed: z.number().int().describe("Results whose steps were removed"),
  attachments: z.number().int().describe("Attachments removed, objects included"),
  partitions: z.array(z.string()).describe("Monthly partitions of results dropped whole"),
  bytesFreed: z.number().describe("Table and index bytes of what was removed (estimate)"),
  objectBytesFreed: z.number().describe("Bytes of the objects deleted from the object store"),
  databaseBytesBefore: z.number().nullable().describe("pg_database_size when the pass started"),
  databaseBytesAfter: z.number().nullable().describe("pg_database_size when it ended"),
  message: z.string().nullable().describe("Why it failed or stopped"),
});
export type RetentionPass = z.infer<typeof RetentionPassSchema>;

export const RetentionStatusSchema = z.object({
  policy: RetentionPolicySchema.nullable(),
  lastPass: RetentionPassSchema.nullable(),
});
export type RetentionStatus = z.infer<typeof RetentionStatusSchema>;

/** A test's final results that retention removed, counted from its daily roll-ups. */
export const RolledUpTestSchema = z.object({
  passed: z.number().int(),
  failed: z.number().int(),
  skipped: z.number().int(),
  from: z.iso.date().nullable().describe("First UTC day with removed results; null: none removed"),
  to: z.iso.date().nullable().describe("Last UTC day with removed results"),
});
export type RolledUpTest = z.infer<typeof RolledUpTestSchema>;
