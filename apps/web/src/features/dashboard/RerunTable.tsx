import { formatUtc, type RerunList } from "@assay/core";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { useNavigate } from "react-router";
import { runHref } from "./run-links";

/** Runs of the automatic rerun of failures: Date, Name, Executor, URL, Failed; a row opens its run. */
export function RerunTable({
  list,
  family,
  height,
}: {
  list: RerunList;
  family: "frontend" | "backend";
  height: number;
}) {
  const navigate = useNavigate();
  if (list.runs.length === 0) {
    return (
      <Typography color="text.secondary" sx={{ py: 4, textAlign: "center" }}>
        No runs by the executor "{list.executor}" in this period: the automatic rerun of failures
        has not run here.
      </Typography>
    );
  }
  return (
    <TableContainer sx={{ maxHeight: height }}>
      <Table size="small" stickyHeader aria-label="Daily rerun-failed runs">
        <TableHead>
          <TableRow>
            <TableCell>Date</TableCell>
            <TableCell>Name</TableCell>
            <TableCell>Executor</TableCell>
            <TableCell>URL</TableCell>
            <TableCell align="right">Failed</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {list.runs.map((run) => (
            <TableRow
              key={run.key}
              hover
              sx={{ cursor: "pointer" }}
              onClick={() => void navigate(runHref(family, run.key))}
            >
              <TableCell sx={{ whiteSpace: "nowrap" }}>{formatUtc(run.createdAt)}</TableCell>
              <TableCell>{run.name}</TableCell>
              <TableCell>{run.executor}</TableCell>
              <TableCell sx={{ wordBreak: "break-all" }}>{run.url ?? "–"}</TableCell>
              <TableCell align="right">{run.failed}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
