import {
  DhEnvironmentListSchema,
  DhMissingRowsSchema,
  DhRunChangesSchema,
  DhRunListSchema,
  DhRunSchema,
  DhRunSummarySchema,
  DhStoredMissingRowsSchema,
  type DhEnvType,
  type DhGlobalSchema,
  type DhPlatform,
  type DhType,
  type StartDhRunBody,
} from "@assay/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getJson, sendJson } from "../../api/client";
import { queryKeys } from "../../api/query-keys";

/** Every choice of the selectors: what Run Report sends and which runs are shown. */
export interface DhSelection {
  platform: DhPlatform;
  type: DhType;
  envType: DhEnvType;
  env: string;
  schema: DhGlobalSchema | "";
  globalEnvType: DhEnvType;
}

/** Environments of the chosen platform, type and environment type (Global: its own list). */
export function useDhEnvironments(selection: DhSelection) {
  const { platform, type, envType, schema } = selection;
  const global = platform === "global";
  return useQuery({
    queryKey: queryKeys.dhEnvironments(platform, global ? schema : type, global ? "" : envType),
    queryFn: ({ signal }) =>
      getJson(
        global
          ? `/v1/dh/getGlobalSchemaEnvironments/global/${schema}`
          : `/v1/dh/${platform}/${type}/${envType}/environments`,
        DhEnvironmentListSchema,
        signal,
      ).then((r) => r.data),
    enabled: !global || schema !== "",
  });
}

/** The run key of a selection, as the server keys runs (Global: schema and its env type). */
export function runQuery(selection: DhSelection) {
  const global = selection.platform === "global";
  return {
    platform: selection.platform,
    type: global ? "sql" : selection.type,
    envType: global ? selection.globalEnvType : selection.envType,
    env: global ? "" : selection.env,
    schema: global ? selection.schema : "",
  };
}

/** The chosen environment's recent runs, newest first; the first is reopened on the screen. */
export function useDhRuns(selection: DhSelection, ready: boolean) {
  const q = runQuery(selection);
  const params = new URLSearchParams({ platform: q.platform, type: q.type, envType: q.envType });
  if (q.env) params.set("env", q.env);
  if (q.schema) params.set("schema", q.schema);
  return useQuery({
    queryKey: queryKeys.dhRuns(q.platform, q.type, q.envType, q.env, q.schema),
    queryFn: ({ signal }) =>
      getJson(`/v1/dh/runs?${params}`, DhRunListSchema, signal).then((r) => r.data),
    enabled: ready,
  });
}

/** Short polling: while a run is queued or running its rows are read again every second. */
export const DH_POLL_MS = 1_000;

export function useDhRun(id: number | undefined) {
  return useQuery({
    queryKey: queryKeys.dhRun(id ?? 0),
    queryFn: ({ signal }) => getJson(`/v1/dh/runs/${id}`, DhRunSchema, signal),
    enabled: id !== undefined,
    refetchInterval: (query) => {
      const state = query.state.data?.state;
      return state === "queued" || state === "running" ? DH_POLL_MS : false;
    },
  });
}

export function useDhChanges(id: number | undefined, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.dhChanges(id ?? 0),
    queryFn: ({ signal }) => getJson(`/v1/dh/runs/${id}/changes`, DhRunChangesSchema, signal),
    enabled: enabled && id !== undefined,
  });
}

/** Run Report: starts a run (or joins the running one) and refreshes the environment's runs. */
export function useStartDhRun() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StartDhRunBody) => sendJson("POST", "/v1/dh/runs", body, DhRunSummarySchema),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ["dh-runs"] });
    },
  });
}

/** A row's last Find missing rows result (null until one is computed), read when `enabled`. */
export function useStoredMissingRows(runId: number, rowId: number, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.dhMissingRows(runId, rowId),
    queryFn: ({ signal }) =>
      getJson(
        `/v1/dh/runs/${runId}/rows/${rowId}/missing-rows`,
        DhStoredMissingRowsSchema,
        signal,
      ).then((r) => r.data),
    enabled,
  });
}

/**
 * Find missing rows for one entity of a sql run: the server bisects key ranges (up to 20 s) and
 * keeps the result with the row, which becomes the row's stored result here too.
 */
export function useFindMissingRows() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ runId, rowId }: { runId: number; rowId: number }) =>
      sendJson(
        "POST",
        `/v1/dh/runs/${runId}/rows/${rowId}/missing-rows`,
        undefined,
        DhMissingRowsSchema,
      ),
    onSuccess: (result) => {
      queryClient.setQueryData(queryKeys.dhMissingRows(result.runId, result.rowId), result);
    },
  });
}
