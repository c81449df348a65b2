import {
  RmsDetailSchema,
  TestHistorySchema,
  TraceabilityMatrixSchema,
  type RmsUpdateBody,
} from "@assay/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getJson, sendJson } from "../../api/client";
import { queryKeys } from "../../api/query-keys";

/** Every requirement with its tests and bugs (GET /v1/traceability-matrix). */
export function useTraceabilityMatrix() {
  return useQuery({
    queryKey: queryKeys.traceabilityMatrix,
    queryFn: ({ signal }) => getJson("/v1/traceability-matrix", TraceabilityMatrixSchema, signal),
  });
}

/** One test's results, newest first (GET /v1/traceability/test-history), while its dialog is open. */
export function useTraceabilityTestHistory(testId: number | null) {
  return useQuery({
    queryKey: queryKeys.traceabilityTestHistory(testId ?? 0),
    queryFn: ({ signal }) =>
      getJson(`/v1/traceability/test-history?testId=${testId}`, TestHistorySchema, signal),
    enabled: testId !== null,
  });
}

/** Saves a requirement's note and flag (PUT /v1/traceability/rms/{id}), then reads the matrix again. */
export function useUpdateRms() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: RmsUpdateBody & { id: number }) =>
      sendJson("PUT", `/v1/traceability/rms/${id}`, body, RmsDetailSchema),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.traceabilityMatrix }),
  });
}
