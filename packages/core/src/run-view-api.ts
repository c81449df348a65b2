import { z } from "zod";
import { FAILURE_FILTERS } from "./failure-filters.js";
import { RunHistorySchema } from "./run-history-api.js";
import { BackendRunSchema, FrontendRunSchema, RunWarningsSchema } from "./runs-api.js";
import { DerivedStatusSchema } from "./run-results-api.js";
import { DefectTypeSchema } from "./triage-api.js";

/**
 * The run view (GET /v1/test-runs/{key}/view and /v1/api-test-run/{key}/view): what the results
 * dialogs show of a run, compact and one page at a time. The spec's run details send every field
 * of every attempt (56 MB for a 100,000-result run); the view sends the final results' card
 * fields as rows of a column list, the error text cut to what a card shows, and the counts, the
 * Failed Summary and the filters worked out on the server.
 */

export const RUN_VIEW_MAX_LIMIT = 1000;
export const DEFAULT_RUN_VIEW_LIMIT = 100;
/** A card's error text is cut after this many characters; the rest is in the result's detail. */
export const VIEW_ERROR_CHARS = 600;
export const MAX_VIEW_SEARCH_CHARS = 200;

/** "a,b,c" as a list; empty items dropped. */
const csv = (description: string) =>
  z
    .string()
    .max(20_000)
    .optional()
    .transform((text) =>
      (text ?? "")
        .split(",")
        .map((item) => item.trim())
        .filter((item) => item !== ""),
    )
    .describe(description);

export const RunViewQuerySchema = z.object({
  offset: z.coerce
    .number()
    .int()
    .min(0)
    .max(10_000_000)
    .default(0)
    .describe("Index of the first row, in the filtered list"),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(RUN_VIEW_MAX_LIMIT)
    .default(DEFAULT_RUN_VIEW_LIMIT)
    .describe(`Rows in this page (1 to ${RUN_VIEW_MAX_LIMIT}, default ${DEFAULT_RUN_VIEW_LIMIT})`),
  hide: csv("Statuses left out, comma separated: passed, failed, skipped, unstable").pipe(
    z.array(DerivedStatusSchema),
  ),
  tags: csv(
    "Keep results carrying any of these tags (report or dynamic tags, case-insensitive), comma separated",
  ),
  failure: z
    .enum(FAILURE_FILTERS.map((filter) => filter.value) as ["new_failure", "failed_three_days"])
    .optional()
    .describe("Frontend runs: keep the New Failures, or the tests failed for three days"),
  group: z
    .string()
    .regex(/^\d{1,15}$/, "group must be a failure group's id, e.g. 12")
    .transform(Number)
    .optional()
    .describe("Keep the failures of this failure group (GET /v1/runs/{key}/failure-groups)"),
  defect: DefectTypeSchema.optional().describe("Keep the failures of this defect type"),
  q: z
    .string()
    .max(MAX_VIEW_SEARCH_CHARS)
    .optional()
    .describe("Search: case-insensitive text in TC id, title, name, scenario or tags"),
  summary: z
    .stringbool()
    .default(true)
    .describe("false: leave out the counts, Failed Summary and tag options (later pages)"),
  locate: z
    .string()
    .max(500)
    .optional()
    .describe("A test_run_test_id whose index in the filtered list is answered as `located`"),
});
export type RunViewQuery = z.infer<typeof RunViewQuerySchema>;

export const StatusCountsSchema = z.object({
  total: z.int().nonnegative(),
  passed: z.int().nonnegative(),
  failed: z.int().nonnegative(),
  skipped: z.int().nonnegative(),
  unstable: z.int().nonnegative(),
});

export const FailedTagGroupSchema = z.object({
  tag: z.string().describe("A major tag of the catalogue, or Unknown"),
  count: z.int().nonnegative(),
  testIds: z.array(z.int()).describe("Failed tests of the group, in result order"),
});

export const RunViewSummarySchema = z.object({
  counts: StatusCountsSchema.describe("Final results by shown status (before any filter)"),
  failed_groups: z.array(FailedTagGroupSchema).describe("The Failed Summary, most failures first"),
  tag_options: z
    .array(z.string())
    .describe("Tags the filter offers: dynamic tags and the results' tags, lower-cased"),
});
export type RunViewSummary = z.infer<typeof RunViewSummarySchema>;

const nullableText = z.string().nullable();

/** Columns of a frontend view row, in order. */
export const FRONTEND_VIEW_COLUMNS = [
  "id",
  "test_run_test_id",
  "test_id",
  "name",
  "title",
  "scenario",
  "derived_status",
  "flaky",
  "duration_ms",
  "tags",
  "error_message",
  "error_cut",
  "tickets",
  "pending_reason",
  "nora_site",
  "chrome_version",
  "platform",
  "commit_hash",
  "screenshot",
] as const;

export const FrontendViewRowSchema = z.tuple([
  z.int(),
  z.string(),
  z.int(),
  z.string(),
  nullableText,
  nullableText,
  DerivedStatusSchema,
  z.boolean(),
  z.number(),
  z.array(z.string()),
  nullableText,
  z.boolean(),
  z.array(z.string()),
  nullableText,
  nullableText,
  nullableText,
  nullableText,
  nullableText,
  nullableText,
]);

/** Columns of a backend view row, in order; the rest (error, log, script) is in its detail. */
export const BACKEND_VIEW_COLUMNS = [
  "id",
  "test_run_test_id",
  "test_id",
  "name",
  "title",
  "scenario",
  "derived_status",
  "attempt",
  "duration_ms",
  "pending_reason",
] as const;

export const BackendViewRowSchema = z.tuple([
  z.int(),
  z.string(),
  z.int(),
  z.string(),
  nullableText,
  nullableText,
  DerivedStatusSchema,
  z.int().nonnegative(),
  z.number(),
  nullableText,
]);

const pageShape = {
  warnings: RunWarningsSchema,
  summary: RunViewSummarySchema.nullable().describe("null when summary=false"),
  total: z.int().nonnegative().describe("Final results of the run"),
  shown: z.int().nonnegative().describe("Final results the filters keep"),
  offset: z.int().nonnegative(),
  limit: z.int().positive(),
  located: z.int().nullable().describe("Index of `locate` in the filtered list; null if absent"),
};

export const FrontendRunViewSchema = z.object({
  run: FrontendRunSchema,
  ...pageShape,
  columns: z.array(z.enum(FRONTEND_VIEW_COLUMNS)).describe("Names of the row cells, in order"),
  rows: z.array(FrontendViewRowSchema).describe("Final results, report order, filtered"),
  history: RunHistorySchema.describe("Recent history of the tests of these rows"),
});
export type FrontendRunView = z.infer<typeof FrontendRunViewSchema>;

export const BackendRunViewSchema = z.object({
  run: BackendRunSchema,
  ...pageShape,
  columns: z.array(z.enum(BACKEND_VIEW_COLUMNS)).describe("Names of the row cells, in order"),
  rows: z.array(BackendViewRowSchema).describe("Final results, report order, filtered"),
});
export type BackendRunView = z.infer<typeof BackendRunViewSchema>;

type Row<C extends readonly string[], T extends readonly unknown[]> = {
  [I in keyof C & `${number}` as C[I]]: I extends keyof T ? T[I] : never;
};
export type FrontendViewResult = Row<
  typeof FRONTEND_VIEW_COLUMNS,
  z.infer<typeof FrontendViewRowSchema>
>;
export type BackendViewResult = Row<
  typeof BACKEND_VIEW_COLUMNS,
  z.infer<typeof BackendViewRowSchema>
>;

/** A row as an object keyed by its columns (the web app renders objects). */
export function viewRowObject<T>(columns: readonly string[], row: readonly unknown[]): T {
  const object: Record<string, unknown> = {};
  columns.forEach((column, index) => (object[column] = row[index]));
  return object as T;
}
