import { CreatedBuildSchema, rerunPath } from "@assay/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { sendJson } from "../../api/client";

export type RerunWhat = "failed" | "unstable";

/**
 * Reruns a run's failed or unstable tests: a build of only those tests, whose results land in the
 * same run as new attempts. The build lists are read again after it.
 */
export function useRerun(family: "frontend" | "backend", runKey: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (tests: RerunWhat) =>
      sendJson("POST", rerunPath(family, runKey), { tests }, CreatedBuildSchema),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["build-list"] }),
  });
}
