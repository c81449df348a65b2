import {
  formatUtc,
  IntegrationsStatusSchema,
  RmsImportResultSchema,
  type TraceabilityMatrix,
} from "@assay/core";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { getJson, sendJson } from "../../api/client";
import { queryKeys } from "../../api/query-keys";
import { ImportPreviewDialog } from "./ImportPreviewDialog";

/**
 * Where the matrix's requirements came from (an imported file, a Jira or Spira sync, with its time),
 * the sync's state with 'Sync now', the requirements upload and the CSV export.
 */

export function sourceText(source: TraceabilityMatrix["source"]): string {
  if (!source)
    return "Source: none yet. Upload a requirements file or run `npx assay rms import FILE`.";
  if (source.kind === "file")
    return `Source: imported file ${source.fileName}, ${formatUtc(source.importedAt)}`;
  return `Source: ${source.kind === "jira" ? "Jira" : "Spira"} sync (${source.fileName}), ${formatUtc(source.importedAt)}`;
}

export function MatrixSourceBar({
  source,
  loaded,
  signedIn,
}: {
  source: TraceabilityMatrix["source"];
  loaded: boolean;
  signedIn: boolean;
}) {
  const queryClient = useQueryClient();
  const integrations = useQuery({
    queryKey: queryKeys.integrations,
    queryFn: ({ signal }) => getJson("/v1/integrations", IntegrationsStatusSchema, signal),
    retry: false,
    // While a sync is on its way, its progress is read every 2 s.
    refetchInterval: (query) =>
      ["queued", "running"].includes(query.state.data?.sync.state ?? "") ? 2000 : false,
  });
  const sync = useMutation({
    mutationFn: () =>
      sendJson("POST", "/v1/integrations/sync", undefined, IntegrationsStatusSchema),
    onSuccess: (status) => queryClient.setQueryData(queryKeys.integrations, status),
  });
  // An upload is previewed first (the server's dry run) and applied only once confirmed.
  const importFile = (file: { fileName: string; content: string }, dryRun: boolean) =>
    sendJson(
      "POST",
      "/v1/traceability/rms/import",
      { ...file, dry_run: dryRun },
      RmsImportResultSchema,
    );
  const [pending, setPending] = useState<{ fileName: string; content: string } | null>(null);
  const preview = useMutation({
    mutationFn: async (file: File) => {
      const read = { fileName: file.name, content: await file.text() };
      setPending(read);
      return importFile(read, true);
    },
  });
  const upload = useMutation({
    mutationFn: (file: { fileName: string; content: string }) => importFile(file, false),
    onSuccess: () => {
      preview.reset();
      setPending(null);
      return queryClient.invalidateQueries({ queryKey: queryKeys.traceabilityMatrix });
    },
  });
  const state = integrations.data?.sync.state;
  const previous = useRef(state);
  useEffect(() => {
    // A sync that just finished changed the requirements: read the matrix again.
    if (previous.current !== state && (state === "succeeded" || state === "failed"))
      void queryClient.invalidateQueries({ queryKey: queryKeys.traceabilityMatrix });
    previous.current = state;
  }, [state, queryClient]);
  const jira = integrations.data?.jira;
  const spira = integrations.data?.spira;
  const syncing = state === "queued" || state === "running" || sync.isPending;
  const last = integrations.data?.sync;
  const tracker = last?.tracker === "spira" ? "Spira" : "Jira";
  return (
    <Box sx={{ display: "grid", gap: 1 }}>
      <Box sx={{ display: "flex", alignItems: "center", gap: 1.5, flexWrap: "wrap" }}>
        <Typography variant="body2" color="text.secondary">
          {loaded && sourceText(source)}
          {last?.tracker !== "spira" && jira?.kind === "demo" && " (the demo's built-in Jira)"}
          {last?.tracker === "spira" && spira?.kind === "demo" && " (the demo's built-in Spira)"}
        </Typography>
        <Box sx={{ ml: "auto", display: "flex", gap: 1 }}>
          {(jira?.requirementsSync || spira?.requirementsSync) && (
            <Button
              size="small"
              variant="outlined"
              disabled={!signedIn || syncing}
              onClick={() => sync.mutate()}
            >
              {syncing ? "Syncing…" : "Sync now"}
            </Button>
          )}
          <Button size="small" variant="outlined" component="label" disabled={!signedIn}>
            Upload requirements
            <input
              hidden
              type="file"
              accept=".csv,.json"
              aria-label="Requirements file"
              onChange={(event) => {
                const file = event.target.files?.[0];
                if (file) {
                  upload.reset();
                  preview.mutate(file);
                }
                event.target.value = "";
              }}
            />
          </Button>
          <Button size="small" variant="outlined" href="/v1/traceability-matrix/export.csv">
            Export CSV
          </Button>
        </Box>
      </Box>
      {last && last.state !== "never" && (
        <Typography variant="body2" color="text.secondary" data-testid="sync-state">
          {syncing
            ? `${tracker} sync ${last.state}${last.progress ? `: ${last.progress}` : ""}`
            : `Last ${tracker} sync ${last.state}${last.finishedAt ? ` ${formatUtc(last.finishedAt)}` : ""}`}
          {last.lastSuccessAt &&
            last.state === "failed" &&
            `; last successful ${formatUtc(last.lastSuccessAt)}`}
        </Typography>
      )}
      {last?.state === "failed" && last.error && (
        <Alert severity="warning">
          The last sync failed and the matrix keeps the previous data: {last.error}
        </Alert>
      )}
      {sync.error && <Alert severity="error">{sync.error.message}</Alert>}
      {preview.error && <Alert severity="error">{preview.error.message}</Alert>}
      {pending && preview.data && (
        <ImportPreviewDialog
          fileName={pending.fileName}
          preview={preview.data.preview}
          applying={upload.isPending}
          error={upload.error?.message ?? null}
          onCancel={() => {
            preview.reset();
            upload.reset();
            setPending(null);
          }}
          onApply={() => upload.mutate(pending)}
        />
      )}
      {upload.data && (
        <Alert severity="success" onClose={() => upload.reset()}>
          Imported {upload.data.requirements} requirements and {upload.data.bugs} bugs from{" "}
          {upload.data.fileName}
          {upload.data.removed > 0 &&
            `; ${upload.data.removed} no longer in the file were archived, their notes kept`}
          .
        </Alert>
      )}
    </Box>
  );
}
