import { z } from "zod";
import { ApiRequestSchema, BackendResultSchema, FrontendResultSchema } from "./run-results-api.js";

import { RunFiltersShape, runFiltersProblem } from "./run-filters.js";

export * from "./run-results-api.js";
export * from "./run-filters.js";

/**
 * The read API of runs and results (spec section 7, "Main dashboard API"): query, path and
 * response schemas. The server declares its routes with them and the web app parses the
 * answers with them. Field names are the spec's (section 3), snake_case unless the spec says
 * otherwise (history testId; backend consoleLog, apiRequests, responsetime).
 */

/** Page sizes of the tables (spec section 9: 15 rows per page, options 10, 15, 20, 30, 100). */
export const TABLE_PAGE_SIZES = [10, 15, 20, 30, 100] as const;
export const DEFAULT_TABLE_PAGE_SIZE = 15;
/** The run lists are such tables. */
export const RUN_PAGE_SIZES = TABLE_PAGE_SIZES;
export const DEFAULT_RUN_PAGE_SIZE = DEFAULT_TABLE_PAGE_SIZE;
/** Page sizes of the API Requests dialog (spec section 9: 100, 1000, 10000). */
export const API_LOG_PAGE_SIZES = [100, 1000, 10000] as const;
export const DEFAULT_API_LOG_PAGE_SIZE = 100;
export const DEFAULT_HISTORY_LIMIT = 100;
export const MAX_HISTORY_LIMIT = 1000;
export const DEFAULT_FAILS_LIMIT = 50;
export const MAX_FAILS_LIMIT = 500;
/** The Top Fails window: "Top Failed Tests in the last 2 months". */
export const TOP_FAILS_WINDOW_MONTHS = 2;

const timestamp = () => z.iso.datetime({ offset: true }).describe("UTC timestamp (ISO 8601)");
const nullableText = (description: string) => z.string().nullable().describe(description);
const count = (description: string) => z.int().nonnegative().describe(description);

const pageSize = (sizes: readonly [number, ...number[]], fallback: number) =>
  z.coerce
    .number()
    .pipe(z.literal(sizes))
    .default(fallback)
    .describe(`Rows per page: one of ${sizes.join(", ")} (default ${fallback})`);

const page = () =>
  z.coerce.number().int().min(1).max(1_000_000).default(1).describe("Page number, from 1");

// ── query and path parameters ────────────────────────────────────────────────────────────────

const force = () =>
  z.stringbool().optional().describe("true: bypass any cache and read the database");

export const RunListQuerySchema = z
  .object({
    page: page(),
    page_size: pageSize(RUN_PAGE_SIZES, DEFAULT_RUN_PAGE_SIZE),
    force: force(),
    ...RunFiltersShape,
  })
  .superRefine((query, ctx) => {
    const problem = runFiltersProblem(query);
    if (problem) ctx.addIssue({ code: "custom", message: problem, path: ["to"] });
  });
export type RunListQuery = z.infer<typeof RunListQuerySchema>;

export const ForceQuerySchema = z.object({ force: force() });

export const ApiLogQuerySchema = z.object({
  page: page(),
  page_size: pageSize(API_LOG_PAGE_SIZES, DEFAULT_API_LOG_PAGE_SIZE),
});
export type ApiLogQuery = z.infer<typeof ApiLogQuerySchema>;

export const RunKeyParamsSchema = z.object({
  key: z.string().min(1).describe("The run's test_run_key"),
});

export const ResultParamsSchema = RunKeyParamsSchema.extend({
  id: z.string().min(1).describe("The result's test_run_test_id within the run"),
});

/** A stable test id (shown TC{id}): digits only, so "abc" or "1e3" answer 400. */
export const TestIdParamsSchema = z.object({
  id: z
    .string()
    .regex(/^\d{1,15}$/, "The test id must be a number, e.g. 1234")
    .transform(Number)
    .describe("Stable test id, shown as TC{id}"),
});

export const HistoryQuerySchema = z.object({
  isNextGen: z
    .stringbool()
    .optional()
    .describe("true: only results of NextGen runs; false: only Legacy runs; absent: all"),
  noraSite: z.string().min(1).optional().describe("Only results of runs on this site"),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_HISTORY_LIMIT)
    .default(DEFAULT_HISTORY_LIMIT)
    .describe(`Most entries returned (default ${DEFAULT_HISTORY_LIMIT}, max ${MAX_HISTORY_LIMIT})`),
});
export type HistoryQuery = z.infer<typeof HistoryQuerySchema>;

export const FailsQuerySchema = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_FAILS_LIMIT)
    .default(DEFAULT_FAILS_LIMIT)
    .describe(`Most tests returned (default ${DEFAULT_FAILS_LIMIT}, max ${MAX_FAILS_LIMIT})`),
});
export type FailsQuery = z.infer<typeof FailsQuerySchema>;

// ── runs ─────────────────────────────────────────────────────────────────────────────────────

/** One page of a list, newest first. */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    total: count("Rows in the whole list, over all pages"),
    page: z.int().positive(),
    page_size: z.int().positive(),
  });
}

const RunCommonShape = {
  test_run_key: z.string().describe("Unique key of the run, used in links"),
  test_run_name: z.string().describe("Name of the run (timestamp-formatted by the reporters)"),
  executor: nullableText("Who or what started the run"),
  branch: nullableText("Branch of the tests"),
  state: z.enum(["open", "finished"]).describe("open while a live reporter is still sending"),
  duration_ms: z.number().nonnegative().describe("Total duration in milliseconds"),
  started_at: timestamp().nullable(),
  finished_at: timestamp().nullable(),
  created_at: timestamp(),
};

const RunCountsShape = {
  total: count("Final results (retries count once)"),
  passed: count("Passed final results"),
  failed: count("Failed final results"),
  pending: count("Pending (skipped) final results"),
  flaky: count("Results that passed on a retry after failing"),
};

export const FrontendRunSchema = z.object({
  ...RunCommonShape,
  ...RunCountsShape,
  failed: count("Failed final results, unstable ones not included"),
  skipped: count("Same as pending: what the screen shows as Skipped"),
  unstable: count("Failed final results of tests in the '@unstable' tag (not counted in failed)"),
  nora_site: nullableText("Site the tests ran against"),
  commit: nullableText("Commit of the tests"),
  is_next_gen: z.boolean().describe("NextGen UI (true) or Legacy UI (false)"),
  is_china_region: z.boolean(),
});
export type FrontendRun = z.infer<typeof FrontendRunSchema>;

export const BackendRunSchema = z.object({
  ...RunCommonShape,
  ...RunCountsShape,
  env: nullableText("Environment the API tests ran against"),
  baseurl: nullableText("Base URL the API tests called"),
  commit: nullableText("Commit of the tests"),
  is_china_region: z.boolean(),
});
export type BackendRun = z.infer<typeof BackendRunSchema>;

export const LoadRunSchema = z.object({
  ...RunCommonShape,
  env: nullableText("Load environment"),
  host: nullableText("Host under load"),
  test_file: nullableText("Locust file that ran"),
  users: z.int().nullable().describe("No. of users"),
  run_time: nullableText("Duration as given to the build, e.g. 5m"),
  spawn_rate: z.number().nullable().describe("Users started per second"),
  load_region: nullableText("Region the load generators ran in, e.g. us-west-2"),
  report_location: nullableText("Object key or URL of the load report"),
});
export type LoadRun = z.infer<typeof LoadRunSchema>;

/**
 * The run lists count at most this many runs for the pager: counting every one of 100,000 runs
 * of a broad filter costs more than the page itself (docs/performance.md). Past it the total
 * reads "10,000+" and total_exact is false.
 */
export const RUN_COUNT_CAP = 10_000;

const runPageSchema = <T extends z.ZodType>(item: T) =>
  pageSchema(item).extend({
    total_exact: z
      .boolean()
      .optional()
      .describe(`false: total is ${RUN_COUNT_CAP} and more runs match (the count stops there)`),
  });

export const FrontendRunPageSchema = runPageSchema(FrontendRunSchema);
export const BackendRunPageSchema = runPageSchema(BackendRunSchema);
export const LoadRunPageSchema = runPageSchema(LoadRunSchema);
export type FrontendRunPage = z.infer<typeof FrontendRunPageSchema>;
export type BackendRunPage = z.infer<typeof BackendRunPageSchema>;
export type LoadRunPage = z.infer<typeof LoadRunPageSchema>;

export const LoadStatSchema = z.object({
  id: z.int(),
  method: z.string().describe("Request type; empty for the Aggregated row"),
  name: z.string().describe("Endpoint name, or 'Aggregated'"),
  requests: z.int(),
  failures: z.int(),
  median_ms: z.number().nullable(),
  p95_ms: z.number().nullable(),
  p99_ms: z.number().nullable(),
  average_ms: z.number().nullable(),
  min_ms: z.number().nullable(),
  max_ms: z.number().nullable(),
  requests_per_s: z.number(),
  failures_per_s: z.number(),
  aggregated: z.boolean().describe("The total row over all endpoints"),
});
export type LoadStat = z.infer<typeof LoadStatSchema>;

export const LoadRunDetailSchema = z.object({
  run: LoadRunSchema,
  load_stats: z.array(LoadStatSchema).describe("Per-endpoint rows, the aggregated row last"),
});
export type LoadRunDetail = z.infer<typeof LoadRunDetailSchema>;

/** What a run's reports said that Assay stored otherwise than written, as their uploads told. */
export const RunWarningsSchema = z
  .array(z.string())
  .describe(
    "What the run's reports said that was stored otherwise than written (a test case without a name, totals that disagree with the tests listed), as each upload's answer gave it",
  );

export const FrontendRunDetailSchema = z.object({
  run: FrontendRunSchema,
  warnings: RunWarningsSchema,
  results: z
    .array(FrontendResultSchema)
    .describe("Every attempt in report order; is_final marks the ones that count"),
});
export type FrontendRunDetail = z.infer<typeof FrontendRunDetailSchema>;

export const BackendRunDetailSchema = z.object({
  run: BackendRunSchema,
  warnings: RunWarningsSchema,
  results: z
    .array(BackendResultSchema)
    .describe("Every attempt in report order; is_final marks the ones that count"),
});
export type BackendRunDetail = z.infer<typeof BackendRunDetailSchema>;

export const ApiLogPageSchema = pageSchema(ApiRequestSchema).describe(
  "The run's API requests in the order they were recorded",
);
export type ApiLogPage = z.infer<typeof ApiLogPageSchema>;

// ── history and top fails ────────────────────────────────────────────────────────────────────

export const HistoryStatusSchema = z.enum(["passed", "failed", "other"]);
export type HistoryStatus = z.infer<typeof HistoryStatusSchema>;

export const HistoryEntrySchema = z.object({
  testId: z
    .int()
    .describe(
      "The test id the result was stored under: an earlier name's when the test was renamed",
    ),
  url: z.string().describe("Link to the result: /test_runs/{test_run_key}/{test_run_test_id}"),
  status: HistoryStatusSchema.describe("passed, failed (unstable included), other (skipped)"),
  date: z.iso.date().nullable().describe("UTC day of start_time (YYYY-MM-DD)"),
  passed: z.boolean(),
  start_time: timestamp().nullable(),
  test_run_key: z.string(),
  test_run_test_id: z.string(),
});
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;
export const HistorySchema = z.array(HistoryEntrySchema).describe("Final results, newest first");

export const TopFailSchema = z.object({
  id: z.int().describe("Stable test id (links to its history)"),
  title: z.string(),
  suite_path: z
    .array(z.string())
    .default([])
    .describe("The suites of its latest failure, outermost first: same-named tests apart"),
  file: z.string().nullable().default(null).describe("The test's file, when its report named one"),
  fail_count: count("Failed final results in the window"),
});
export type TopFail = z.infer<typeof TopFailSchema>;
export const TopFailsSchema = z
  .array(TopFailSchema)
  .describe("Most failures first, ties by test id");
