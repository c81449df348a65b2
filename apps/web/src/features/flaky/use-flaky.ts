import { FlakyDetailSchema, FlakyListSchema, FlakySummarySchema } from "@assay/core";
import { useQuery } from "@tanstack/react-query";
import { getJson } from "../../api/client";

/** Query keys of flaky tests, under one root. */
export const flakyKeys = {
  all: ["flaky"] as const,
  list: (search: string) => ["flaky", "list", search] as const,
  summary: ["flaky", "summary"] as const,
  test: (testId: number) => ["flaky", "test", testId] as const,
};

/** The filters of the page's URL the API takes (family, platform, branch). */
export function apiSearch(params: URLSearchParams): string {
  const out = new URLSearchParams();
  for (const name of ["family", "platform", "branch"]) {
    const value = params.get(name);
    if (value) out.set(name, value);
  }
  out.set("limit", "200");
  return out.toString();
}

/** Flaky tests, highest score first (GET /v1/flaky-tests). */
export function useFlakyTests(search: string) {
  return useQuery({
    queryKey: flakyKeys.list(search),
    queryFn: ({ signal }) => getJson(`/v1/flaky-tests?${search}`, FlakyListSchema, signal),
  });
}

/** The trend and the '@unstable' tests stable for their last N results. */
export function useFlakySummary() {
  return useQuery({
    queryKey: flakyKeys.summary,
    queryFn: ({ signal }) => getJson("/v1/flaky-tests/summary", FlakySummarySchema, signal),
  });
}

/** A test's score per job context, with its evidence; undefined: nothing to read. */
export function useFlakyTest(testId: number | undefined) {
  return useQuery({
    queryKey: flakyKeys.test(testId ?? 0),
    queryFn: ({ signal }) => getJson(`/v1/flaky-tests/${testId}`, FlakyDetailSchema, signal),
    enabled: testId !== undefined,
  });
}

/** A rate as a percentage with one decimal at most. */
export function percent(rate: number): string {
  return `${Math.round(rate * 1000) / 10}%`;
}

/** "main · chrome · site-a · staging": the parts of a context that are set. */
export function contextLabel(context: {
  family: string;
  platform: string | null;
  branch: string | null;
  site: string | null;
  environment: string | null;
}): string {
  const parts = [context.branch, context.platform, context.site, context.environment];
  return [context.family, ...parts.filter((part): part is string => !!part)].join(" · ");
}
