import { MeSchema, PictureUploadedSchema, type ProfileUpdate } from "@assay/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { putFile, sendJson } from "../../api/client";
import { queryKeys } from "../../api/query-keys";

export interface ProfileChanges {
  update: ProfileUpdate;
  /** A new picture to upload first, if one was chosen. */
  picture?: File;
  /** Remove the current picture (ignored when a new one is chosen). */
  removePicture: boolean;
}

/**
 * Saves the Profile dialog: the picture (PUT /v1/me/picture), then the fields (PUT /v1/me).
 * Everything that shows the user (header, buttons) reads GET /v1/me, refreshed on success.
 */
export function useSaveProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ update, picture, removePicture }: ProfileChanges) => {
      if (picture) await putFile("/v1/me/picture", picture, PictureUploadedSchema);
      const body: ProfileUpdate = removePicture && !picture ? { ...update, picture: null } : update;
      return sendJson("PUT", "/v1/me", body, MeSchema);
    },
    onSuccess: (me) => {
      queryClient.setQueryData(queryKeys.me, me);
      return queryClient.invalidateQueries({ queryKey: queryKeys.me });
    },
  });
}
