import { RMS_NOTE_MAX_LENGTH, type RmsDetail } from "@assay/core";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import CircularProgress from "@mui/material/CircularProgress";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import FormControlLabel from "@mui/material/FormControlLabel";
import Link from "@mui/material/Link";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { Link as RouterLink } from "react-router";
import { LimitedTextField, lengthProblem } from "../../components/fields/LimitedTextField";
import { StatusIcon } from "./TestRunsCell";
import { useTraceabilityTestHistory, useUpdateRms } from "./use-traceability";

// Spec section 2: start times in UTC, long format.
const LONG_UTC = new Intl.DateTimeFormat("en-US", {
  dateStyle: "full",
  timeStyle: "long",
  timeZone: "UTC",
});

export function longUtc(iso: string | null): string {
  return iso ? LONG_UTC.format(new Date(iso)) : "-";
}

/** 'Update: {rms}': the summary, a multiline Note and 'No Automation for this RMS'. */
export function EditRmsDialog({ rms, onClose }: { rms: RmsDetail; onClose: () => void }) {
  const [note, setNote] = useState(rms.note);
  const [noTestNeeded, setNoTestNeeded] = useState(rms.noTestNeeded === 1);
  const update = useUpdateRms();
  const tooLong = lengthProblem(note, "note", RMS_NOTE_MAX_LENGTH) !== null;
  const submit = () => {
    if (tooLong) return;
    update.mutate({ id: rms.id, note, noTestNeeded: noTestNeeded ? 1 : 0 }, { onSuccess: onClose });
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>Update: {rms.rms}</DialogTitle>
      <DialogContent sx={{ display: "grid", gap: 2 }}>
        <Typography>{rms.summary}</Typography>
        <LimitedTextField
          label="Note"
          what="note"
          maxChars={RMS_NOTE_MAX_LENGTH}
          multiline
          minRows={3}
          maxRows={12}
          value={note}
          onChange={(event) => setNote(event.target.value)}
        />
        <FormControlLabel
          control={
            <Checkbox
              checked={noTestNeeded}
              onChange={(event) => setNoTestNeeded(event.target.checked)}
            />
          }
          label="No Automation for this RMS"
        />
        {update.error && <Alert severity="error">{update.error.message}</Alert>}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={submit} disabled={update.isPending || tooLong}>
          Submit
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** 'Test History for TC{id}': each result's start, status icon and a link to its report. */
export function TestHistoryDialog({ testId, onClose }: { testId: number; onClose: () => void }) {
  const history = useTraceabilityTestHistory(testId);
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md">
      <DialogTitle>Test History for TC{testId}</DialogTitle>
      <DialogContent>
        {history.isPending && <CircularProgress aria-label="Loading test history" />}
        {history.error && <Alert severity="error">{history.error.message}</Alert>}
        {history.data && history.data.length === 0 && (
          <Typography>This test has no results yet.</Typography>
        )}
        {history.data && history.data.length > 0 && (
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>Start time (UTC)</TableCell>
                <TableCell>Status</TableCell>
                <TableCell>Report</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {history.data.map((entry) => (
                <TableRow key={`${entry.test_run_key}/${entry.test_run_test_id}`}>
                  <TableCell>{longUtc(entry.start_time)}</TableCell>
                  <TableCell>
                    <StatusIcon status={entry.status} />
                  </TableCell>
                  <TableCell>
                    <Link
                      component={RouterLink}
                      to={`/test_runs/${encodeURIComponent(entry.test_run_key)}/${encodeURIComponent(entry.test_run_test_id)}`}
                    >
                      Test Report
                    </Link>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
