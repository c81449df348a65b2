import type { BackendRun, FailedTagGroup } from "@assay/core";
import ListAlt from "@mui/icons-material/ListAlt";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import FormControlLabel from "@mui/material/FormControlLabel";
import Switch from "@mui/material/Switch";
import { RerunButton } from "../RerunButton";
import type { BackendHideable } from "../view/use-run-view";
import { FailedSummary } from "./FailedSummary";
import { InfoBox } from "./InfoBox";

const number = new Intl.NumberFormat("en-US");

/** A box's Hide switch: its results are left out of the list (the server filters them). */
function HideSwitch({
  status,
  hidden,
  onHide,
}: {
  status: BackendHideable;
  hidden: ReadonlySet<BackendHideable>;
  onHide: (status: BackendHideable, hide: boolean) => void;
}) {
  return (
    <FormControlLabel
      control={
        <Switch
          size="small"
          slotProps={{ input: { "aria-label": `Hide ${status} results` } }}
          checked={hidden.has(status)}
          onChange={(event) => onHide(status, event.target.checked)}
        />
      }
      label="Hide"
      slotProps={{ typography: { variant: "body2" } }}
      sx={{ ml: -0.5 }}
    />
  );
}

/**
 * The info boxes of the Backend results dialog: Total, Passed, Skipped and Failed (each with
 * its Hide switch, as the Frontend dialog has), and the Failed Summary.
 */
export function BackendSummary({
  run,
  hidden,
  onHide,
  onViewApiRequests,
  failedGroups,
}: {
  run: BackendRun;
  hidden: ReadonlySet<BackendHideable>;
  onHide: (status: BackendHideable, hide: boolean) => void;
  onViewApiRequests: () => void;
  failedGroups: readonly FailedTagGroup[] | undefined;
}) {
  return (
    <Box sx={{ display: "flex", flexWrap: "wrap", gap: 1.5, alignItems: "stretch" }}>
      <InfoBox label="Total" value={number.format(run.total)}>
        <Box>
          <Button startIcon={<ListAlt />} onClick={onViewApiRequests}>
            View API Requests
          </Button>
        </Box>
      </InfoBox>
      <InfoBox label="Passed" value={number.format(run.passed)} color="status.passed">
        <HideSwitch status="passed" hidden={hidden} onHide={onHide} />
      </InfoBox>
      <InfoBox label="Skipped" value={number.format(run.pending)} color="status.skipped">
        <HideSwitch status="skipped" hidden={hidden} onHide={onHide} />
      </InfoBox>
      <InfoBox label="Failed" value={number.format(run.failed)} color="status.failed">
        <HideSwitch status="failed" hidden={hidden} onHide={onHide} />
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
        <FailedSummary groups={failedGroups} buildTab="backend" runKey={run.test_run_key} />
      </InfoBox>
    </Box>
  );
}
