import {
  COVERAGE_FILTERS,
  coverageLabel,
  isSpiraRequirementKey,
  TRACEABILITY_PAGE_SIZES,
  visibleRows,
  type CoverageFilter,
  type RmsDetail,
  type TraceabilityRow,
} from "@assay/core";
import AddLinkIcon from "@mui/icons-material/AddLink";
import EditIcon from "@mui/icons-material/Edit";
import PrintOutlined from "@mui/icons-material/PrintOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import Chip from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import FormControlLabel from "@mui/material/FormControlLabel";
import IconButton from "@mui/material/IconButton";
import Link from "@mui/material/Link";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TablePagination from "@mui/material/TablePagination";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useMemo, useState } from "react";
import { Link as RouterLink } from "react-router";
import { useCatalog } from "../../api/use-catalog";
import { useSignedIn } from "../../api/use-signed-in";
import { SignInHint } from "../tags/SignInHint";
import { MatrixSourceBar } from "./MatrixSourceBar";
import { RmsLinksDialog } from "./RmsLinksDialog";
import { TestRunsCell } from "./TestRunsCell";
import { LinkedBugsDialog } from "./LinkedBugsDialog";
import { EditRmsDialog, TestHistoryDialog } from "./TraceabilityDialogs";
import { useTraceabilityMatrix } from "./use-traceability";

function RmsCell({ rms, issueTrackerUrl }: { rms: RmsDetail; issueTrackerUrl?: string }) {
  // A Spira requirement is no issue of the tracker (Jira): its key is shown, not linked there.
  const linked = issueTrackerUrl && rms.rms !== "ERROR" && !isSpiraRequirementKey(rms.rms);
  return (
    <Box sx={{ display: "grid", gap: 0.5, justifyItems: "start" }}>
      {linked ? (
        <Link
          href={`${issueTrackerUrl}${encodeURIComponent(rms.rms)}`}
          target="_blank"
          rel="noreferrer"
        >
          {rms.rms}
        </Link>
      ) : (
        <Typography variant="body2">{rms.rms}</Typography>
      )}
      <Box sx={{ display: "flex", gap: 0.5 }}>
        {rms.epic && <Chip size="small" color="primary" variant="outlined" label={rms.epic} />}
        {rms.type && <Chip size="small" label={rms.type} />}
      </Box>
      <Typography variant="body2">{rms.summary}</Typography>
    </Box>
  );
}

/**
 * Traceability Matrix (/traceability-matrix, spec section 2): requirements from the imported file
 * with the tests whose tags name them, filters, notes, the audited edit and linked bugs.
 */
export function TraceabilityMatrixPage() {
  const matrix = useTraceabilityMatrix();
  const catalog = useCatalog();
  const signedIn = useSignedIn();
  const [hideInactive, setHideInactive] = useState(true);
  const [text, setText] = useState("");
  const [filter, setFilter] = useState<CoverageFilter>("all");
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState<number>(TRACEABILITY_PAGE_SIZES[0]);
  const [editing, setEditing] = useState<RmsDetail | null>(null);
  const [linking, setLinking] = useState<RmsDetail | null>(null);
  const [historyOf, setHistoryOf] = useState<number | null>(null);
  const [bugsOpen, setBugsOpen] = useState(false);

  const rows: TraceabilityRow[] = useMemo(
    () => visibleRows(matrix.data?.rows ?? [], { hideInactive, text, filter }),
    [matrix.data, hideInactive, text, filter],
  );
  const shown = rows.slice(page * pageSize, (page + 1) * pageSize);
  const issueTrackerUrl = catalog.data?.issueTrackerUrl;
  const source = matrix.data?.source;
  const bugs = useMemo(() => {
    const byKey = new Map(rows.flatMap((row) => row.linkedBugs).map((bug) => [bug.key, bug]));
    return [...byKey.values()];
  }, [rows]);
  const onFilters = () => setPage(0);

  return (
    <Box sx={{ display: "grid", gap: 2 }}>
      <Box sx={{ display: "flex", alignItems: "center", gap: 2, flexWrap: "wrap" }}>
        <FormControlLabel
          control={
            <Checkbox
              checked={hideInactive}
              onChange={(event) => {
                setHideInactive(event.target.checked);
                onFilters();
              }}
            />
          }
          label="Hide Inactive RMS"
        />
        <Button variant="outlined" onClick={() => setBugsOpen(true)}>
          View Linked Bugs
        </Button>
        <Button
          variant="outlined"
          component={RouterLink}
          to="/traceability-matrix/print"
          startIcon={<PrintOutlined />}
        >
          Printable report
        </Button>
      </Box>
      <MatrixSourceBar
        source={source ?? null}
        loaded={matrix.data !== undefined}
        signedIn={signedIn}
      />
      {matrix.error && <Alert severity="error">{matrix.error.message}</Alert>}
      <TableContainer component={Paper} variant="outlined">
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell sx={{ width: "38%" }}>
                RMS
                <TextField
                  size="small"
                  placeholder="Filter summary, RMS, epic"
                  value={text}
                  onChange={(event) => {
                    setText(event.target.value);
                    onFilters();
                  }}
                  slotProps={{ htmlInput: { "aria-label": "Filter RMS" } }}
                  sx={{ display: "block", mt: 0.5 }}
                  fullWidth
                />
              </TableCell>
              <TableCell sx={{ width: "34%" }}>
                Test Runs
                <TextField
                  select
                  size="small"
                  value={filter}
                  onChange={(event) => {
                    setFilter(event.target.value as CoverageFilter);
                    onFilters();
                  }}
                  slotProps={{ htmlInput: { "aria-label": "Filter test runs" } }}
                  sx={{ display: "block", mt: 0.5 }}
                  fullWidth
                >
                  {COVERAGE_FILTERS.map((option) => (
                    <MenuItem key={option.value} value={option.value}>
                      {option.label}
                    </MenuItem>
                  ))}
                </TextField>
              </TableCell>
              <TableCell>Notes</TableCell>
              <TableCell sx={{ width: 96 }}>Action</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {matrix.isPending && (
              <TableRow>
                <TableCell colSpan={4} align="center">
                  <CircularProgress aria-label="Loading the traceability matrix" />
                </TableCell>
              </TableRow>
            )}
            {matrix.data && shown.length === 0 && (
              <TableRow>
                <TableCell colSpan={4} align="center">
                  {matrix.data.rows.length === 0
                    ? "No requirements imported yet."
                    : "No RMS matches these filters."}
                </TableCell>
              </TableRow>
            )}
            {shown.map((row) => (
              <TableRow
                key={row.rmsDetail.id}
                data-testid="rms-row"
                sx={row.rmsDetail.noTestNeeded === 1 ? { bgcolor: "action.hover" } : undefined}
              >
                <TableCell>
                  <RmsCell rms={row.rmsDetail} issueTrackerUrl={issueTrackerUrl} />
                </TableCell>
                <TableCell>
                  <TestRunsCell
                    row={row}
                    repositoryUrl={catalog.data?.sourceRepositoryUrl}
                    onHistory={setHistoryOf}
                  />
                </TableCell>
                <TableCell sx={{ whiteSpace: "pre-wrap" }}>{row.rmsDetail.note}</TableCell>
                <TableCell sx={{ whiteSpace: "nowrap" }}>
                  {row.rmsDetail.rms !== "ERROR" && (
                    <SignInHint signedIn={signedIn} title={`Edit ${row.rmsDetail.rms}`}>
                      <IconButton
                        aria-label={`Edit ${row.rmsDetail.rms}`}
                        disabled={!signedIn}
                        onClick={() => setEditing(row.rmsDetail)}
                      >
                        <EditIcon fontSize="small" />
                      </IconButton>
                    </SignInHint>
                  )}
                  {row.rmsDetail.rms !== "ERROR" && (
                    <SignInHint signedIn={signedIn} title={`Link tests to ${row.rmsDetail.rms}`}>
                      <IconButton
                        aria-label={`Link tests to ${row.rmsDetail.rms}`}
                        disabled={!signedIn}
                        onClick={() => setLinking(row.rmsDetail)}
                      >
                        <AddLinkIcon fontSize="small" />
                      </IconButton>
                    </SignInHint>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <Box sx={{ display: "flex", alignItems: "center", gap: 3 }}>
        <Typography>Total RMS: {rows.length}</Typography>
        <Typography>Coverage: {coverageLabel(rows)}</Typography>
        <TablePagination
          component="div"
          sx={{ ml: "auto" }}
          count={rows.length}
          page={page}
          rowsPerPage={pageSize}
          rowsPerPageOptions={[...TRACEABILITY_PAGE_SIZES]}
          onPageChange={(_, next) => setPage(next)}
          onRowsPerPageChange={(event) => {
            setPageSize(Number(event.target.value));
            setPage(0);
          }}
        />
      </Box>
      {editing && <EditRmsDialog rms={editing} onClose={() => setEditing(null)} />}
      {linking && <RmsLinksDialog rms={linking} onClose={() => setLinking(null)} />}
      {historyOf !== null && (
        <TestHistoryDialog testId={historyOf} onClose={() => setHistoryOf(null)} />
      )}
      {bugsOpen && (
        <LinkedBugsDialog
          bugs={bugs}
          loading={matrix.isPending}
          issueTrackerUrl={issueTrackerUrl}
          onClose={() => setBugsOpen(false)}
        />
      )}
    </Box>
  );
}
