import type { BackendRun, FailedTagGroup } from "@assay/core";
import ListAlt from "@mui/icons-material/ListAlt";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import FormControlLabel from "@mui/material/FormControlLabel";
import Switch from "@mui/material/Switch";
import Typography from "@mui/material/Typography";
import { RerunButton } from "../RerunButton";
import { FailedSummary } from "./FailedSummary";
import { InfoBox } from "./InfoBox";

const number = new Intl.NumberFormat("en-US");

/** The info boxes of the Backend results dialog: Total, Passed, Failed, Failed Summary. */
export function BackendSummary({
  run,
  hideFailed,
  onHideFailedChange,
  onViewApiRequests,
  failedGroups,
}: {
  run: BackendRun;
  hideFailed: boolean;
  onHideFailedChange: (hide: boolean) => void;
  onViewApiRequests: () => void;
  failedGroups: readonly FailedTagGroup[] | undefined;
}) {
  return (
    <Box sx={{ display: "flex", flexWrap: "wrap", gap: 1.5, alignItems: "stretch" }}>
      <InfoBox label="Total" value={number.format(run.total)}>
        {run.pending > 0 && (
          <Typography variant="caption" color="text.secondary">
            {number.format(run.pending)} skipped
          </Typography>
        )}
        <Box>
          <Button startIcon={<ListAlt />} onClick={onViewApiRequests}>
            View API Requests
          </Button>
        </Box>
      </InfoBox>
      <InfoBox label="Passed" value={number.format(run.passed)} color="status.passed" />
      <InfoBox label="Failed" value={number.format(run.failed)} color="status.failed">
        <FormControlLabel
          control={
            <Switch
              size="small"
              slotProps={{ input: { "aria-label": "Hide failed results" } }}
              checked={hideFailed}
              onChange={(event) => onHideFailedChange(event.target.checked)}
            />
          }
          label="Hide"
          slotProps={{ typography: { variant: "body2" } }}
          sx={{ ml: -0.5 }}
        />
        <Box>
          <RerunButton
            family="backend"
            runKey={run.test_run_key}
            runName={run.test_run_name}
            place={run.env}
            what="failed"
            count={run.failed}
          />
        </Box>
      </InfoBox>
      <InfoBox label="Failed Summary" grow>
        <FailedSummary groups={failedGroups} buildTab="backend" />
      </InfoBox>
    </Box>
  );
}
