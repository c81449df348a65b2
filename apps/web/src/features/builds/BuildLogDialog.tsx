import { isFinalStatus } from "@assay/core";
import Download from "@mui/icons-material/Download";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Link from "@mui/material/Link";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import { Link as RouterLink } from "react-router";
import { runHref } from "./build-columns";
import { BuildPhaseChip, BuildStatusChip } from "./BuildChips";
import { BuildHistory } from "./BuildHistory";
import { StopBuildButton } from "./StopBuildButton";
import { useBuildDetail } from "./use-builds";

export const LOG_ERROR = "Error occurred fetching the build log. Please try again.";

/** A build's log (GET /v1/builds/{id}): its tail, read again while the build runs; Stop. */
export function BuildLogDialog({ id, onClose }: { id: string; onClose: () => void }) {
  const detail = useBuildDetail(id);
  const build = detail.data;
  const active = build ? !isFinalStatus(build.buildStatus) : false;
  const titleId = "build-log-title";
  return (
    <Dialog open onClose={onClose} maxWidth="lg" fullWidth aria-labelledby={titleId}>
      <DialogTitle id={titleId}>Log of build #{id}</DialogTitle>
      <DialogContent dividers>
        {detail.isError && <Alert severity="error">{LOG_ERROR}</Alert>}
        {detail.isPending && <Skeleton variant="rectangular" height={320} />}
        {build && (
          <>
            <Box sx={{ display: "flex", gap: 1, alignItems: "center", mb: 1, flexWrap: "wrap" }}>
              <BuildPhaseChip phase={build.currentPhase} active={active} />
              <BuildStatusChip status={build.buildStatus} />
              <Link component={RouterLink} to={runHref(build)}>
                {build.TEST_RUN_NAME}
              </Link>
              <Typography color="text.secondary">
                started by {build.startedBy.name} · {build.executorKind}
              </Typography>
            </Box>
            {build.statusMessage && (
              <Alert
                severity={build.buildStatus === "SUCCEEDED" ? "info" : "warning"}
                sx={{ mb: 1 }}
              >
                {build.statusMessage}
              </Alert>
            )}
            <BuildHistory events={build.events} />
            {build.log.truncated && (
              <Typography variant="body2" color="text.secondary" sx={{ mb: 0.5 }}>
                The last {Math.round(build.log.text.length / 1024)} KB of{" "}
                {Math.round(build.log.bytes / 1024)} KB; download the whole log below.
              </Typography>
            )}
            <Box
              component="pre"
              aria-label="Build log"
              sx={{
                m: 0,
                p: 1.5,
                maxHeight: "60vh",
                overflow: "auto",
                bgcolor: "action.hover",
                borderRadius: 1,
                fontSize: 12,
                whiteSpace: "pre-wrap",
                wordBreak: "break-all",
              }}
            >
              {build.log.text === "" ? "No output yet." : build.log.text}
            </Box>
          </>
        )}
      </DialogContent>
      <DialogActions>
        {build?.logUrl && (
          <Button startIcon={<Download />} href={build.logUrl} download>
            Download log
          </Button>
        )}
        {build && active && <StopBuildButton build={build} />}
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
