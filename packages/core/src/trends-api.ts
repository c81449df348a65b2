import { z } from "zod";

/**
 * Load runs over time (issue 35): per endpoint, across the load runs of one job (the same Locust
 * file against the same environment), p50, p95, requests per second and error rate, with a
 * regression flag against the previous runs. Field names are camelCase (the spec names none).
 */

export const TREND_METRICS = ["p50", "p95", "rps", "errorRate"] as const;
export type TrendMetric = (typeof TREND_METRICS)[number];

export const TREND_METRIC_LABELS: Record<TrendMetric, string> = {
  p50: "p50 (ms)",
  p95: "p95 (ms)",
  rps: "Requests/s",
  errorRate: "Error rate (%)",
};

/** Runs a trend shows when the request names no limit, and the most it may ask for. */
export const TREND_DEFAULT_RUNS = 30;
export const TREND_MAX_RUNS = 200;

export const TrendParamsSchema = z.object({
  key: z.string().min(1).max(200).describe("A load run's test_run_key: its job's trend, up to it"),
});

export const TrendQuerySchema = z.strictObject({
  runs: z.coerce
    .number({ error: "runs must be a number, e.g. 30" })
    .int("runs must be a whole number, e.g. 30")
    .min(2, "runs must be at least 2: a trend needs two runs")
    .max(TREND_MAX_RUNS, `runs must be at most ${TREND_MAX_RUNS}`)
    .default(TREND_DEFAULT_RUNS)
    .describe(`How many runs of the job, ending at this one (default ${TREND_DEFAULT_RUNS})`),
});
export type TrendQuery = z.infer<typeof TrendQuerySchema>;

export const TrendRunSchema = z.object({
  key: z.string(),
  name: z.string(),
  createdAt: z.string().describe("When the run was stored (UTC)"),
});
export type TrendRun = z.infer<typeof TrendRunSchema>;

export const LoadPointSchema = z.object({
  p50: z.number().nullable().describe("Median response time, ms (null: not reported)"),
  p95: z.number().nullable().describe("95th percentile response time, ms (null: not reported)"),
  rps: z.number().describe("Requests per second"),
  errorRate: z.number().describe("Failed requests, percent of requests"),
  regressions: z
    .array(z.enum(TREND_METRICS))
    .describe("Metrics worse than the median of the previous runs by more than the threshold"),
});
export type LoadPoint = z.infer<typeof LoadPointSchema>;

export const EndpointTrendSchema = z.object({
  method: z.string().describe("Request type; empty for the Aggregated row"),
  name: z.string(),
  aggregated: z.boolean(),
  points: z
    .array(LoadPointSchema.nullable())
    .describe("One per run of `runs`, in its order; null where the run lacks the endpoint"),
  regressions: z
    .array(z.enum(TREND_METRICS))
    .describe("The regressions of the run the trend was asked for"),
});
export type EndpointTrend = z.infer<typeof EndpointTrendSchema>;

export const LoadTrendSchema = z.object({
  job: z.object({
    testFile: z.string().nullable().describe("Locust file of the job"),
    env: z.string().nullable().describe("Environment of the job"),
  }),
  runKey: z.string().describe("The run the trend was asked for (the last of `runs`)"),
  runs: z.array(TrendRunSchema).describe("The job's runs, oldest first"),
  rule: z
    .object({
      window: z.int().describe("Previous runs each run is compared with"),
      percent: z.number().describe("p50, p95 up or requests/s down by more than this: regression"),
      errorPoints: z
        .number()
        .describe("Error rate up by more than this many percentage points: regression"),
    })
    .describe("The regression rule (docs/configuration.md)"),
  endpoints: z.array(EndpointTrendSchema).describe("Regressed endpoints first, Aggregated last"),
});
export type LoadTrend = z.infer<typeof LoadTrendSchema>;
