import {
  NotifyArchivedSchema,
  NotifyRuleListSchema,
  NotifyRuleSchema,
  type NotifyRuleBody,
} from "@assay/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getJson, sendJson } from "../../api/client";
import { queryKeys } from "../../api/query-keys";

/** The notification rules with their latest deliveries; read only when someone is signed in. */
export function useNotifyRules(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.notifyRules,
    queryFn: ({ signal }) => getJson("/v1/notify/rules", NotifyRuleListSchema, signal),
    enabled,
    // Deliveries change on their own as runs end: the outcomes stay fresh while the screen is open.
    refetchInterval: 30_000,
  });
}

/** Add, replace and archive a rule; the list reloads after each. */
export function useNotifyChanges() {
  const client = useQueryClient();
  const onSuccess = () => client.invalidateQueries({ queryKey: queryKeys.notifyRules });
  const save = useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: NotifyRuleBody }) =>
      id === null
        ? sendJson("POST", "/v1/notify/rules", body, NotifyRuleSchema)
        : sendJson("PUT", `/v1/notify/rules/${id}`, body, NotifyRuleSchema),
    onSuccess,
  });
  const archive = useMutation({
    mutationFn: (id: number) =>
      sendJson("DELETE", `/v1/notify/rules/${id}`, undefined, NotifyArchivedSchema),
    onSuccess,
  });
  return { save, archive };
}
