import {
  DefectAnswerSchema,
  FailureGroupDetailSchema,
  FailureGroupListSchema,
  RunFailureGroupListSchema,
  type DefectBody,
  type ResultCause,
  type RunFailureGroup,
} from "@assay/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getJson, sendJson } from "../../api/client";
import { loadCause } from "./cause-batch";

/** Query keys of triage, under one root so that a decision reads every triage answer again. */
export const triageKeys = {
  all: ["triage"] as const,
  run: (key: string) => ["triage", "run", key] as const,
  groups: (search: string) => ["triage", "groups", search] as const,
  group: (id: number) => ["triage", "group", id] as const,
  cause: (runKey: string, resultId: number) => ["triage", "cause", runKey, resultId] as const,
};

/** A run's failures by cause (GET /v1/runs/{key}/failure-groups). */
export function useRunFailureGroups(runKey: string) {
  return useQuery({
    queryKey: triageKeys.run(runKey),
    queryFn: ({ signal }) =>
      getJson(
        `/v1/runs/${encodeURIComponent(runKey)}/failure-groups`,
        RunFailureGroupListSchema,
        signal,
      ),
  });
}

/** The run's groups by id, one Map per answer whatever re-renders. */
const byIdOf = new WeakMap<readonly RunFailureGroup[], Map<number, RunFailureGroup>>();
export function groupsById(groups: readonly RunFailureGroup[]): Map<number, RunFailureGroup> {
  let map = byIdOf.get(groups);
  if (!map) {
    map = new Map(groups.map((group) => [group.id, group]));
    byIdOf.set(groups, map);
  }
  return map;
}

export interface CardCause {
  group: RunFailureGroup;
  cause: ResultCause;
}

/**
 * A failed result's cause on its card: its group (from the run's groups answer, shared by every
 * card) and its type (asked with the other cards of its page, cause-batch.ts).
 */
export function useCardCause(runKey: string, resultId: number): CardCause | undefined {
  const groups = useRunFailureGroups(runKey);
  const cause = useQuery({
    queryKey: triageKeys.cause(runKey, resultId),
    queryFn: () => loadCause(runKey, resultId),
    staleTime: 10_000,
  });
  const group = cause.data ? groupsById(groups.data ?? []).get(cause.data.groupId) : undefined;
  return cause.data && group ? { group, cause: cause.data } : undefined;
}

/** Failure groups over a period with filters (GET /v1/failure-groups?...). */
export function useFailureGroups(search: string) {
  return useQuery({
    queryKey: triageKeys.groups(search),
    queryFn: ({ signal }) =>
      getJson(`/v1/failure-groups${search ? `?${search}` : ""}`, FailureGroupListSchema, signal),
  });
}

export function useFailureGroup(id: number) {
  return useQuery({
    queryKey: triageKeys.group(id),
    queryFn: ({ signal }) => getJson(`/v1/failure-groups/${id}`, FailureGroupDetailSchema, signal),
  });
}

/** Sets a defect type: on a group's results of 90 days, a group in a run, or one result. */
export function useSetDefect() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ path, body }: { path: string; body: DefectBody }) =>
      sendJson("PUT", path, body, DefectAnswerSchema),
    // Every triage answer, and the run views a defect-type filter cut.
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: triageKeys.all }),
        client.invalidateQueries({ queryKey: ["run-view"] }),
      ]),
  });
}
