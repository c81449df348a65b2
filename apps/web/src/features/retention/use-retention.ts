import { RetentionStatusSchema, RolledUpTestSchema } from "@assay/core";
import { useQuery } from "@tanstack/react-query";
import { getJson } from "../../api/client";
import { queryKeys } from "../../api/query-keys";

/** The retention policy and the latest pass (GET /v1/retention). */
export function useRetention() {
  return useQuery({
    queryKey: queryKeys.retention,
    queryFn: ({ signal }) => getJson("/v1/retention", RetentionStatusSchema, signal),
  });
}

/**
 * A test's results that retention removed, counted per day (Test History adds them); read once
 * `enabled` (after the history itself, which decides whether they count).
 */
export function useRolledUpTest(testId: number | undefined, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.rolledUpTest(testId ?? -1),
    queryFn: ({ signal }) => getJson(`/v1/retention/tests/${testId}`, RolledUpTestSchema, signal),
    enabled: testId !== undefined && enabled,
  });
}
