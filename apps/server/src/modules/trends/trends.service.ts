import type { EndpointTrend, LoadTrend, TrendMetric, LoadPoint, TrendQuery } from "@assay/core";
import type { TrendSettings } from "../../config-trends.js";
import type { Db } from "../../db/pool.js";
import { notFound } from "../../errors.js";
import * as repo from "./trends.repo.js";

type Values = Omit<LoadPoint, "regressions">;

function valuesOf(row: repo.EndpointStatRow): Values {
  return {
    p50: row.median_ms,
    p95: row.p95_ms,
    rps: row.requests_per_s,
    errorRate: row.requests > 0 ? (row.failures / row.requests) * 100 : 0,
  };
}

function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((x, y) => x - y);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Whether `value` is worse than `base` by the rule: higher is worse except for requests/s. */
function worse(metric: TrendMetric, value: number, base: number, rule: TrendSettings): boolean {
  if (metric === "errorRate") return value - base > rule.errorPoints;
  if (metric === "rps") return value < base * (1 - rule.percent / 100);
  return value > base * (1 + rule.percent / 100);
}

/**
 * The metrics of `point` worse than the median of the same endpoint in the (up to) `window`
 * runs before it. Runs without the endpoint or without a value are left out of the median; a
 * point with no earlier value is never a regression.
 */
export function regressionsOf(
  points: readonly (Values | null)[],
  index: number,
  rule: TrendSettings,
): TrendMetric[] {
  const point = points[index];
  if (!point) return [];
  const earlier = points.slice(Math.max(0, index - rule.window), index);
  const found: TrendMetric[] = [];
  for (const metric of ["p50", "p95", "rps", "errorRate"] as const) {
    const value = point[metric];
    const base = median(earlier.flatMap((p) => (p && p[metric] !== null ? [p[metric]] : [])));
    if (value !== null && base !== undefined && worse(metric, value, base, rule)) {
      found.push(metric);
    }
  }
  return found;
}

const endpointKey = (row: repo.EndpointStatRow) =>
  `${row.aggregated ? 1 : 0}\u0000${row.method}\u0000${row.name}`;

function byRegressionThenName(x: EndpointTrend, y: EndpointTrend): number {
  if (x.aggregated !== y.aggregated) return x.aggregated ? 1 : -1;
  const regressed = Number(y.regressions.length > 0) - Number(x.regressions.length > 0);
  return regressed || x.name.localeCompare(y.name) || x.method.localeCompare(y.method);
}

/**
 * Per endpoint, across the load runs of `key`'s job up to that run: p50, p95, requests per second
 * and error rate, each point flagged where it regressed against the runs before it. The earliest
 * points shown are judged against runs read for that purpose only, so every point has its window.
 */
export async function loadTrend(
  db: Db,
  rule: TrendSettings,
  key: string,
  query: TrendQuery,
): Promise<LoadTrend> {
  const run = await repo.findLoadRun(db, key);
  if (!run) throw notFound(`No load test run with key ${key}: check the key in the Load list.`);
  const runs = (await repo.jobRunsUpTo(db, run, query.runs + rule.window)).reverse();
  const index = new Map(runs.map((r, i) => [r.id, i]));
  const series = new Map<string, { row: repo.EndpointStatRow; values: (Values | null)[] }>();
  for (const row of await repo.statsOfRuns(db, [...index.keys()])) {
    const k = endpointKey(row);
    let entry = series.get(k);
    if (!entry) series.set(k, (entry = { row, values: runs.map(() => null) }));
    entry.values[index.get(row.run_id)!] = valuesOf(row);
  }
  const first = Math.max(0, runs.length - query.runs);
  const endpoints: EndpointTrend[] = [...series.values()].map(({ row, values }) => {
    const points = values.map((v, i) => v && { ...v, regressions: regressionsOf(values, i, rule) });
    const shown = points.slice(first);
    return {
      method: row.method,
      name: row.name,
      aggregated: row.aggregated,
      points: shown,
      regressions: shown[shown.length - 1]?.regressions ?? [],
    };
  });
  return {
    job: { testFile: run.test_file, env: run.env },
    runKey: run.key,
    runs: runs.slice(first).map((r) => ({
      key: r.key,
      name: r.name,
      createdAt: r.created_at.toISOString(),
    })),
    rule: { window: rule.window, percent: rule.percent, errorPoints: rule.errorPoints },
    endpoints: endpoints.sort(byRegressionThenName),
  };
}
