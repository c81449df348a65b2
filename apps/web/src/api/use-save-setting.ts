import { SettingSchema, type SettingBodyInput } from "@assay/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { sendJson } from "./client";
import { queryKeys } from "./query-keys";

/** Spec section 9: settings edit actions are dispatched after about 200 ms. */
export const SETTING_EDIT_DELAY_MS = 200;
export const settingEditDelay = () =>
  new Promise((resolve) => setTimeout(resolve, SETTING_EDIT_DELAY_MS));

/**
 * Creates (id null) or replaces a Daily Run Scheduler setting; the list reloads after it (spec
 * section 4). Shared by the scheduler's editor and the build dialogs' Save as schedule.
 */
export function useSaveSetting() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, body }: { id: number | null; body: SettingBodyInput }) => {
      await settingEditDelay();
      return id === null
        ? sendJson("POST", "/v1/setting", body, SettingSchema)
        : sendJson("PUT", `/v1/setting/${id}`, body, SettingSchema);
    },
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.settings }),
  });
}
