import { z } from "zod";
import { HistoryStatusSchema } from "./runs-api.js";

/**
 * GET /v1/test-runs/{key}/history: the recent history of every test of a frontend run in one
 * call, for the results dialog's history icons and its 'Filter Failure List'. Each test's list
 * starts with its result in this run, then its results in earlier runs, newest first, so an old
 * run is judged by what was known when it ran.
 */

export const DEFAULT_RUN_HISTORY_LIMIT = 5;
export const MAX_RUN_HISTORY_LIMIT = 20;

export const RunHistoryQuerySchema = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_RUN_HISTORY_LIMIT)
    .default(DEFAULT_RUN_HISTORY_LIMIT)
    .describe(
      `Entries per test (default ${DEFAULT_RUN_HISTORY_LIMIT}, max ${MAX_RUN_HISTORY_LIMIT})`,
    ),
});
export type RunHistoryQuery = z.infer<typeof RunHistoryQuerySchema>;

export const RunHistoryEntrySchema = z.object({
  status: HistoryStatusSchema.describe("passed, failed (unstable included), other (skipped)"),
  date: z.iso.date().nullable().describe("UTC day of start_time (YYYY-MM-DD)"),
  test_run_key: z.string(),
  test_run_test_id: z.string(),
});
export type RunHistoryEntry = z.infer<typeof RunHistoryEntrySchema>;

export const RunHistorySchema = z
  .record(z.string().regex(/^\d+$/), z.array(RunHistoryEntrySchema))
  .describe("Keyed by stable test id: this run's result first, then earlier ones, newest first");
export type RunHistory = z.infer<typeof RunHistorySchema>;
