import { RmsTestLinkListSchema, RmsTestLinkSchema } from "@assay/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getJson, sendJson } from "../../api/client";
import { queryKeys } from "../../api/query-keys";

/** A requirement's links made on the screen, removed ones included (its links dialog). */
export function useRmsLinks(id: number) {
  return useQuery({
    queryKey: queryKeys.rmsLinks(id),
    queryFn: ({ signal }) =>
      getJson(`/v1/traceability/rms/${id}/links`, RmsTestLinkListSchema, signal),
  });
}

/**
 * Links a test (POST) or removes its link (DELETE), then reads the matrix again: its tests and
 * coverage change, and so does this requirement's link list (its key is under the matrix's).
 */
export function useEditRmsLink(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, testId }: { action: "link" | "unlink"; testId: number | string }) =>
      action === "link"
        ? sendJson("POST", `/v1/traceability/rms/${id}/links`, { testId }, RmsTestLinkSchema)
        : sendJson(
            "DELETE",
            `/v1/traceability/rms/${id}/links/${encodeURIComponent(testId)}`,
            undefined,
            RmsTestLinkSchema,
          ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.traceabilityMatrix }),
  });
}
