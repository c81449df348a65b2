import { BUILD_LIST_PATHS, BuildPageSchema } from "@assay/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { getJson } from "../../../api/client";
import { queryKeys } from "../../../api/query-keys";

/** While one of a run's builds is active (a rerun), its list is read again this often. */
export const RUN_BUILDS_POLL_MS = 3_000;

export type RunBuildsFamily = "frontend" | "backend";

function listPath(family: RunBuildsFamily, china: boolean): string {
  if (family === "backend") return BUILD_LIST_PATHS.backend;
  return china ? BUILD_LIST_PATHS.china : BUILD_LIST_PATHS.frontend;
}

/**
 * The builds that produced a run (its first build and its reruns), newest first. The key sits
 * under the build lists' ("build-list"), so a rerun started anywhere reads it again. While one
 * is active it is read every few seconds; when the last one ends, its results are in the run,
 * so the run (and its tests' history) are read again: the counts and attempts update by
 * themselves.
 */
export function useRunBuilds(family: RunBuildsFamily, runKey: string, china: boolean) {
  const queryClient = useQueryClient();
  const path = listPath(family, china);
  const query = useQuery({
    queryKey: [...queryKeys.buildLists(path), "run", runKey] as const,
    queryFn: ({ signal }) =>
      getJson(
        `${path}?test_run_key=${encodeURIComponent(runKey)}&page_size=100`,
        BuildPageSchema,
        signal,
      ),
    refetchInterval: (q) => ((q.state.data?.active ?? 0) > 0 ? RUN_BUILDS_POLL_MS : false),
  });
  const active = query.data?.active ?? 0;
  const before = useRef(active);
  useEffect(() => {
    if (before.current > 0 && active === 0) {
      void queryClient.invalidateQueries({ queryKey: queryKeys.runViews(family, runKey) });
    }
    before.current = active;
  }, [active, family, runKey, queryClient]);
  return query;
}
