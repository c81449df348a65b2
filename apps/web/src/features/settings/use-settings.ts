import {
  DeletedSettingSchema,
  ScheduleSlotSchema,
  SettingListSchema,
  SettingSchema,
  type SettingBodyInput,
} from "@assay/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getJson, sendJson } from "../../api/client";
import { queryKeys } from "../../api/query-keys";

/** Spec section 9: settings edit actions are dispatched after about 200 ms. */
const EDIT_DELAY_MS = 200;
const delay = () => new Promise((resolve) => setTimeout(resolve, EDIT_DELAY_MS));

export function useSettings() {
  return useQuery({
    queryKey: queryKeys.settings,
    queryFn: ({ signal }) => getJson("/v1/setting", SettingListSchema, signal),
  });
}

/** Create, update, delete and Run now; the list reloads after each succeeds (spec section 4). */
export function useSettingChanges() {
  const client = useQueryClient();
  const onSuccess = () => client.invalidateQueries({ queryKey: queryKeys.settings });
  const save = useMutation({
    mutationFn: async ({ id, body }: { id: number | null; body: SettingBodyInput }) => {
      await delay();
      return id === null
        ? sendJson("POST", "/v1/setting", body, SettingSchema)
        : sendJson("PUT", `/v1/setting/${id}`, body, SettingSchema);
    },
    onSuccess,
  });
  const remove = useMutation({
    mutationFn: async (id: number) => {
      await delay();
      return sendJson("DELETE", `/v1/setting/${id}`, undefined, DeletedSettingSchema);
    },
    onSuccess,
  });
  const runNow = useMutation({
    mutationFn: (id: number) =>
      sendJson("POST", `/v1/setting/${id}/run`, undefined, ScheduleSlotSchema),
    onSuccess,
  });
  return { save, remove, runNow };
}
