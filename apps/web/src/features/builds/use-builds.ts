import {
  BUILD_LIST_PATHS,
  BuildDetailSchema,
  BuildPageSchema,
  CreatedBuildSchema,
  isFinalStatus,
  type BackendBuildInput,
  type BuildRegion,
  type FrontendBuildInput,
  type LoadBuildInput,
} from "@assay/core";
import {
  keepPreviousData,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from "@tanstack/react-query";
import { getJson, sendJson } from "../../api/client";
import { queryKeys } from "../../api/query-keys";
import type { BuildTab } from "../../components/builds-url";

/** While a list holds an active build it is read again this often; never when none is. */
export const BUILD_POLL_MS = 3_000;

/** Spec section 7: each family's list and create path; CHINA is the frontend's China service. */
export function buildsPath(tab: BuildTab, region: BuildRegion): string {
  if (tab === "frontend" && region === "CHINA") return BUILD_LIST_PATHS.china;
  return BUILD_LIST_PATHS[tab];
}

/** A page of a tab's builds, newest first; it refreshes itself while any build is active. */
export function useBuildList(path: string, page: number, pageSize: number) {
  return useQuery({
    queryKey: queryKeys.buildList(path, page, pageSize),
    queryFn: ({ signal }) =>
      getJson(`${path}?page=${page}&page_size=${pageSize}`, BuildPageSchema, signal),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => ((query.state.data?.active ?? 0) > 0 ? BUILD_POLL_MS : false),
  });
}

/** Refresh: reads the list on screen again now. */
export function refreshBuildList(queryClient: QueryClient, path: string) {
  return queryClient.invalidateQueries({ queryKey: queryKeys.buildLists(path) });
}

/** One build with its log's tail (GET /v1/builds/{id}), read again while it runs. */
export function useBuildDetail(id: string) {
  return useQuery({
    queryKey: queryKeys.build(id),
    queryFn: ({ signal }) =>
      getJson(`/v1/builds/${encodeURIComponent(id)}`, BuildDetailSchema, signal),
    refetchInterval: (query) => {
      const status = query.state.data?.buildStatus;
      return status && !isFinalStatus(status) ? BUILD_POLL_MS : false;
    },
  });
}

export function useStopBuild(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      sendJson("POST", `/v1/builds/${encodeURIComponent(id)}/stop`, undefined, CreatedBuildSchema),
    // The row's Stop and the Log dialog's: both the build and the lists show its status.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ["build"] }),
        queryClient.invalidateQueries({ queryKey: ["build-list"] }),
      ]),
  });
}

export type BuildRequest = FrontendBuildInput | BackendBuildInput | LoadBuildInput;

/** Creates a build (POST to the family's path); the lists are read again after it (spec §4). */
export function useCreateBuild() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ path, payload }: { path: string; payload: BuildRequest }) =>
      sendJson("POST", path, payload, CreatedBuildSchema),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["build-list"] }),
  });
}
