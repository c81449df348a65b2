import { DeletedSettingSchema, ScheduleSlotSchema, SettingListSchema } from "@assay/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getJson, sendJson } from "../../api/client";
import { queryKeys } from "../../api/query-keys";
import { settingEditDelay as delay, useSaveSetting } from "../../api/use-save-setting";

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
  const save = useSaveSetting();
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
