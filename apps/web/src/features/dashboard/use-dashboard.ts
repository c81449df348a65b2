import {
  DailyChartSchema,
  RerunListSchema,
  type DailyEnv,
  type DashboardPeriod,
} from "@assay/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { getJson } from "../../api/client";
import { queryKeys } from "../../api/query-keys";

export interface DailyRunsFilter {
  family: "frontend" | "backend";
  platform: "legacy" | "nextGen";
  env: DailyEnv;
  days: DashboardPeriod;
}

function search(filter: DailyRunsFilter): string {
  const params = new URLSearchParams({
    family: filter.family,
    env: filter.env,
    days: String(filter.days),
  });
  if (filter.family === "frontend") params.set("platform", filter.platform);
  return params.toString();
}

/** Per-day sums of the daily robot's runs (GET /v1/dashboard/daily-runs). */
export function useDailyChart(filter: DailyRunsFilter, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.dailyChart(search(filter)),
    queryFn: ({ signal }) =>
      getJson(`/v1/dashboard/daily-runs?${search(filter)}`, DailyChartSchema, signal),
    enabled,
    // Switching environment or period keeps the last chart on screen until the next one arrives.
    placeholderData: keepPreviousData,
  });
}

/** Runs of the automatic rerun of failures, newest first (GET /v1/dashboard/rerun-runs). */
export function useRerunRuns(filter: DailyRunsFilter, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.rerunRuns(search(filter)),
    queryFn: ({ signal }) =>
      getJson(`/v1/dashboard/rerun-runs?${search(filter)}`, RerunListSchema, signal),
    enabled,
    placeholderData: keepPreviousData,
  });
}
