import { summarizeFailures, type BackendRunDetail } from "@assay/core";
import Close from "@mui/icons-material/Close";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Dialog from "@mui/material/Dialog";
import IconButton from "@mui/material/IconButton";
import Skeleton from "@mui/material/Skeleton";
import Toolbar from "@mui/material/Toolbar";
import Typography from "@mui/material/Typography";
import { useMemo, useState } from "react";
import { useParams, useSearchParams } from "react-router";
import { useCatalog } from "../../../api/use-catalog";
import { ApiRequestsDialog } from "./ApiRequestsDialog";
import { BackendResultList } from "./BackendResultList";
import { RunBuilds } from "../builds/RunBuilds";
import { RunWarnings } from "../RunWarnings";
import { BackendSummary } from "./BackendSummary";
import { useBackendRun } from "./use-backend-run";
import { RESULTS_ERROR } from "./messages";

/** Query parameter that keeps the API Requests dialog open in a shared link. */
export const API_LOG_PARAM = "api_log";

export interface BackendResultsDialogProps {
  runKey: string;
  open: boolean;
  onClose(): void;
}

/**
 * The Backend results dialog (spec section 2), full screen: the run's info boxes and its
 * results, each expanding into error, stack, console log, script and API requests. A test key
 * in the URL (/test_runs/{key}/{test_key}?be=1) opens that result.
 */
export function BackendResultsDialog({ runKey, open, onClose }: BackendResultsDialogProps) {
  const run = useBackendRun(runKey, open);
  const [searchParams, setSearchParams] = useSearchParams();
  const apiLogOpen = searchParams.get(API_LOG_PARAM) === "1";

  const setApiLogOpen = (next: boolean) =>
    setSearchParams((params) => {
      const updated = new URLSearchParams(params);
      if (next) updated.set(API_LOG_PARAM, "1");
      else updated.delete(API_LOG_PARAM);
      return updated;
    });

  return (
    <Dialog
      fullScreen
      open={open}
      onClose={onClose}
      aria-labelledby="backend-results-title"
      // The dialog takes focus on open (for Escape and the focus trap); it is no control.
      slotProps={{ paper: { sx: { outline: "none" } } }}
    >
      <Toolbar
        variant="dense"
        sx={{ gap: 2, borderBottom: 1, borderColor: "divider", bgcolor: "background.paper" }}
      >
        <Typography id="backend-results-title" variant="h2" component="h2" noWrap>
          {runKey}
        </Typography>
        {run.data && <RunCaption detail={run.data} />}
        <Box sx={{ flex: 1 }} />
        <IconButton aria-label="Close" onClick={onClose} edge="end">
          <Close />
        </IconButton>
      </Toolbar>
      <Box
        sx={{
          display: "flex",
          flexDirection: "column",
          gap: 2,
          p: 2,
          flex: 1,
          minHeight: 0,
          bgcolor: "background.default",
        }}
      >
        {run.isPending ? (
          <LoadingState />
        ) : run.isError ? (
          <Alert severity="error">
            {RESULTS_ERROR}
            <Typography variant="caption" component="div">
              {run.error.message}
            </Typography>
          </Alert>
        ) : (
          <RunResults detail={run.data} onViewApiRequests={() => setApiLogOpen(true)} />
        )}
      </Box>
      {apiLogOpen && (
        <ApiRequestsDialog runKey={runKey} open onClose={() => setApiLogOpen(false)} />
      )}
    </Dialog>
  );
}

function RunCaption({ detail }: { detail: BackendRunDetail }) {
  const where = detail.run.env ?? detail.run.baseurl;
  const parts = [detail.run.test_run_name, where, detail.run.executor].filter(Boolean);
  return (
    <Typography variant="body2" color="text.secondary" noWrap>
      {parts.join(" · ")}
    </Typography>
  );
}

function LoadingState() {
  return (
    <Box
      aria-label="Loading results"
      aria-busy
      sx={{ display: "flex", flexDirection: "column", gap: 2 }}
    >
      <Box sx={{ display: "flex", gap: 1.5 }}>
        {[0, 1, 2, 3].map((box) => (
          <Skeleton key={box} variant="rounded" width={box === 3 ? 360 : 160} height={104} />
        ))}
      </Box>
      {[0, 1, 2, 3, 4, 5].map((row) => (
        <Skeleton key={row} variant="rounded" height={44} />
      ))}
    </Box>
  );
}

function RunResults({
  detail,
  onViewApiRequests,
}: {
  detail: BackendRunDetail;
  onViewApiRequests: () => void;
}) {
  const catalog = useCatalog();
  const { test_key: linkedTest } = useParams();
  const [hideFailed, setHideFailed] = useState(false);
  // Retries are kept in the answer, but the final attempt is the one that counts. Statuses are
  // the server's derived_status (core's deriveStatus): a 'Pending reason' failure is skipped.
  const finals = useMemo(() => detail.results.filter((result) => result.is_final), [detail]);
  const shown = useMemo(
    () => (hideFailed ? finals.filter((result) => result.derived_status !== "failed") : finals),
    [finals, hideFailed],
  );
  const majorTags = catalog.data?.majorTags;
  const failedGroups = useMemo(
    () =>
      majorTags &&
      summarizeFailures(
        finals.filter((result) => result.derived_status === "failed"),
        majorTags,
      ),
    [finals, majorTags],
  );

  return (
    <>
      <RunBuilds family="backend" runKey={detail.run.test_run_key} china={false} />
      <RunWarnings warnings={detail.warnings} />
      <BackendSummary
        run={detail.run}
        hideFailed={hideFailed}
        onHideFailedChange={setHideFailed}
        onViewApiRequests={onViewApiRequests}
        failedGroups={failedGroups}
      />
      {finals.length === 0 ? (
        <Typography color="text.secondary" sx={{ p: 2 }}>
          {detail.run.state === "open"
            ? "No results in this run yet: its reporter is still sending them."
            : "This run has no results."}
        </Typography>
      ) : (
        <BackendResultList
          results={shown}
          repositoryUrl={catalog.data?.sourceRepositoryUrl}
          initialExpanded={linkedTest}
        />
      )}
    </>
  );
}
