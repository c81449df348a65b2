import {
  AliasListSchema,
  AliasSchema,
  AliasSuggestionListSchema,
  AliasSuggestionSchema,
} from "@assay/core";
import { useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { getJson, sendJson } from "./client";
import { queryKeys } from "./query-keys";

/**
 * Renamed tests (GET/POST /v1/test-aliases ...): shared by the Renamed Tests screen and Test
 * History, where a test's renames are made by hand and undone.
 */

/** A test's aliases, undone ones included (the journal); every recent alias without a test. */
export function useAliases(testId?: number) {
  const query = testId === undefined ? "?undone=true" : `?testId=${testId}&undone=true`;
  return useQuery({
    queryKey: queryKeys.aliases(testId ?? -1),
    queryFn: ({ signal }) => getJson(`/v1/test-aliases${query}`, AliasListSchema, signal),
  });
}

export function useAliasSuggestions() {
  return useQuery({
    queryKey: queryKeys.aliasSuggestions,
    queryFn: ({ signal }) =>
      getJson("/v1/test-aliases/suggestions", AliasSuggestionListSchema, signal),
  });
}

/** An alias changes what every test's history and Top Fails read: all of them are read again. */
async function refetchAfter(queryClient: QueryClient) {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: ["aliases"] }),
    queryClient.invalidateQueries({ queryKey: ["test-history"] }),
    queryClient.invalidateQueries({ queryKey: queryKeys.topFails }),
  ]);
}

export function useCreateAlias() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { testId: string; canonicalTestId: number }) =>
      sendJson("POST", "/v1/test-aliases", body, AliasSchema),
    onSuccess: () => refetchAfter(queryClient),
  });
}

export function useUndoAlias() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      sendJson("POST", `/v1/test-aliases/${id}/undo`, undefined, AliasSchema),
    onSuccess: () => refetchAfter(queryClient),
  });
}

export function useConfirmSuggestion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      sendJson("POST", `/v1/test-aliases/suggestions/${id}/confirm`, undefined, AliasSchema),
    onSuccess: () => refetchAfter(queryClient),
  });
}

export function useDismissSuggestion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      sendJson(
        "POST",
        `/v1/test-aliases/suggestions/${id}/dismiss`,
        undefined,
        AliasSuggestionSchema,
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["aliases"] }),
  });
}
