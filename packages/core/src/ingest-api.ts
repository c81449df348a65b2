import { z } from "zod";
import { REPORT_FORMAT_SOURCES, ReportFormatSchema } from "./results.js";

/** Families of runs (spec section 3): browser UI, API and load tests. */
export const FamilySchema = z.enum(["frontend", "backend", "load"]);
export type Family = z.infer<typeof FamilySchema>;

/** Run keys are chosen by CI for sharded jobs, and appear in URLs: keep them plain. */
export const RunKeySchema = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/,
    "run keys are 1-128 letters, digits, '.', '_', ':' or '-'",
  );

// Multipart fields arrive as text: "true"/"false" and numbers are converted.
const flag = z.stringbool().or(z.boolean());
const optionalText = z.string().trim().min(1).max(500).optional();

/** The run's metadata, sent with an upload or when a live reporter opens a run. */
export const RunMetadataSchema = z.object({
  family: FamilySchema.default("frontend").describe("frontend (UI), backend (API) or load"),
  test_run_name: optionalText.describe("Run name; default: the time the run was created"),
  nora_site: optionalText.describe("Site the UI tests ran against"),
  env: optionalText.describe("Environment of an API or load run"),
  baseurl: optionalText.describe("Base URL of an API run"),
  executor: optionalText.describe("Who or what ran it, e.g. the daily robot executor"),
  branch: optionalText,
  commit: optionalText,
  is_next_gen: flag.default(false).describe("NextGen platform (frontend)"),
  is_china_region: flag.default(false),
  host: optionalText.describe("Load: target host"),
  test_file: optionalText.describe("Load: the locust file"),
  users: z.coerce.number().int().positive().optional().describe("Load: number of users"),
  run_time: optionalText.describe("Load: duration, e.g. 5m"),
  spawn_rate: z.coerce.number().positive().optional().describe("Load: users started per second"),
  load_region: optionalText.describe("Load: region the generators ran in"),
  started_at: z.iso
    .datetime({ offset: true })
    .optional()
    .describe("Load: when the test started (ISO 8601); runs of results take it from their results"),
  duration_ms: z.coerce
    .number()
    .int()
    .nonnegative()
    .max(7 * 24 * 3_600_000)
    .optional()
    .describe("Load: how long the test ran, in ms; runs of results sum their results'"),
});
export type RunMetadata = z.infer<typeof RunMetadataSchema>;
export type RunMetadataInput = z.input<typeof RunMetadataSchema>;

export const UploadFieldsSchema = RunMetadataSchema.extend({
  format: z
    .enum(["auto", ...ReportFormatSchema.options])
    .default("auto")
    .describe(
      "auto (default) detects each file's format from its content. The formats, and what writes them: " +
        Object.entries(REPORT_FORMAT_SOURCES)
          .map(([format, source]) => `${format}: ${source}`)
          .join("; "),
    ),
  run_key: RunKeySchema.optional().describe(
    "Merge into this run (created if new); absent: a new run",
  ),
  junit_retries: flag
    .default(false)
    .describe(
      "JUnit: same-named test cases of one suite are attempts of one test, as some rerun tools write them (default false: every test case is a test of its own)",
    ),
});
export type UploadFields = z.infer<typeof UploadFieldsSchema>;

export const RunCountsSchema = z.object({
  total: z.int(),
  passed: z.int(),
  failed: z.int(),
  pending: z.int().describe("Skipped, or failed with 'Pending reason' (shown as skipped)"),
  flaky: z.int().describe("Passed on a retry after failing"),
});

export const IngestResponseSchema = z.object({
  test_run_key: z.string(),
  family: FamilySchema,
  formats: z.array(ReportFormatSchema).describe("Formats of the report files found"),
  counts: RunCountsSchema.describe("The run's counts after this upload (final attempts)"),
  inserted: z.int().describe("Results stored by this upload"),
  duplicates: z.int().describe("Results the run already had, left unchanged"),
  attachments: z.int(),
  missing_attachments: z.array(z.string()).describe("Attachment references with no uploaded file"),
  warnings: z
    .array(z.string())
    .describe(
      "What the reports said that was stored otherwise than written: a test case without a name (named after its suite or file), totals that disagree with the tests listed (both numbers and the likely cause). The run keeps them too.",
    ),
  url: z.string().describe("Where the run is shown in the web app"),
  link: z
    .string()
    .optional()
    .describe("The same, absolute, on the server's public URL (ASSAY_PUBLIC_URL)"),
});
export type IngestResponse = z.infer<typeof IngestResponseSchema>;

/** POST /v1/ingest/runs: a run live reporters append to. */
export const OpenRunBodySchema = RunMetadataSchema.extend({
  run_key: RunKeySchema.optional().describe("Reuse this key (sharded jobs); absent: a new run"),
});

export const LiveRunSchema = z.object({
  test_run_key: z.string(),
  state: z.enum(["open", "finished"]),
  url: z.string(),
});

export const AppendResultsResponseSchema = z.object({
  test_run_key: z.string(),
  inserted: z.int(),
  duplicates: z.int().describe("Results the run already had (same test_run_test_id), unchanged"),
  counts: RunCountsSchema,
});

export const FinishRunResponseSchema = z.object({
  test_run_key: z.string(),
  state: z.literal("finished"),
  counts: RunCountsSchema,
});

export const AttachmentCreatedSchema = z.object({
  id: z.int(),
  object_key: z.string().describe("Fetch it at /v1/objects/{object_key}"),
  size: z.int(),
  content_type: z.string(),
});
