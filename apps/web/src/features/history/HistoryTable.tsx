import { formatUtc, type HistoryEntry } from "@assay/core";
import Box from "@mui/material/Box";
import Link from "@mui/material/Link";
import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { Link as RouterLink } from "react-router";
import { HISTORY_LOOK } from "../../components/StatusLabel";

/** The day and minute in UTC ("2026-03-04 09:15"): two runs on one day stay apart. */
function shortUtc(entry: HistoryEntry): string {
  if (!entry.start_time) return entry.date ?? "–";
  return formatUtc(entry.start_time).slice(0, 16);
}

function StatusCell({ status }: { status: HistoryEntry["status"] }) {
  const { label, Icon, color } = HISTORY_LOOK[status];
  return (
    <Box
      component="span"
      sx={{
        display: "inline-flex",
        alignItems: "center",
        verticalAlign: "middle",
        gap: 0.5,
        color,
        fontWeight: 600,
      }}
    >
      <Icon sx={{ fontSize: 16 }} aria-hidden />
      {label}
    </Box>
  );
}

/**
 * A test's past results, newest first: the UTC date (full timestamp on hover), the status as
 * icon and word, and a link to the result in its run's report.
 */
export function HistoryTable({
  entries,
  testId,
}: {
  entries: readonly HistoryEntry[];
  /** The test looked up: a result stored under an earlier name (an alias) says which. */
  testId?: number;
}) {
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table aria-label="Past results">
        <TableHead>
          <TableRow>
            <TableCell sx={{ width: 180 }}>Date (UTC)</TableCell>
            <TableCell sx={{ width: 140 }}>Status</TableCell>
            <TableCell>Test Report</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {entries.map((entry) => (
            <TableRow key={`${entry.test_run_key}/${entry.test_run_test_id}`} hover>
              <TableCell>
                <Tooltip title={formatUtc(entry.start_time)} placement="right">
                  <Box component="span" sx={{ fontVariantNumeric: "tabular-nums" }}>
                    {shortUtc(entry)}
                  </Box>
                </Tooltip>
              </TableCell>
              <TableCell>
                <StatusCell status={entry.status} />
              </TableCell>
              <TableCell>
                <Link component={RouterLink} to={entry.url} sx={{ wordBreak: "break-all" }}>
                  {entry.test_run_key}
                </Link>
                {testId !== undefined && entry.testId !== testId && (
                  <Typography
                    component="span"
                    variant="body2"
                    color="text.secondary"
                    sx={{ ml: 1 }}
                  >
                    as TC{entry.testId} (earlier name)
                  </Typography>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
