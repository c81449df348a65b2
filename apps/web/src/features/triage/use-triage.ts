import {
  DefectAnswerSchema,
  FailureGroupDetailSchema,
  FailureGroupListSchema,
  RunFailureGroupListSchema,
  type DefectBody,
  type DefectType,
  type RunFailureGroup,
} from "@assay/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getJson, sendJson } from "../../api/client";

/** Query keys of triage, under one root so that a decision reads every triage answer again. */
export const triageKeys = {
  all: ["triage"] as const,
  run: (key: string) => ["triage", "run", key] as const,
  groups: (search: string) => ["triage", "groups", search] as const,
  group: (id: number) => ["triage", "group", id] as const,
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

export interface ResultCause {
  group: RunFailureGroup;
  type: DefectType;
  auto: boolean;
}

/** Each failed result's group and type, by result id. */
export function causesByResult(groups: readonly RunFailureGroup[]): Map<number, ResultCause> {
  const out = new Map<number, ResultCause>();
  for (const group of groups) {
    for (const result of group.results) {
      out.set(result.id, { group, type: result.type, auto: result.auto });
    }
  }
  return out;
}

/** The run's causes by result id: one Map per answer, shared by every card. */
export function useRunCauses(runKey: string) {
  return useQuery({
    queryKey: triageKeys.run(runKey),
    queryFn: ({ signal }) =>
      getJson(
        `/v1/runs/${encodeURIComponent(runKey)}/failure-groups`,
        RunFailureGroupListSchema,
        signal,
      ),
    select: causesByResult,
  });
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
    onSuccess: () => client.invalidateQueries({ queryKey: triageKeys.all }),
  });
}
