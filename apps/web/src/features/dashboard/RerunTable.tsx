import { DEFAULT_RUN_PAGE_SIZE, formatUtc, RUN_PAGE_SIZES, type RerunList } from "@assay/core";
import Link from "@mui/material/Link";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TablePagination from "@mui/material/TablePagination";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { Link as RouterLink, useNavigate } from "react-router";
import { runHref } from "./run-links";

/** The run's address in Assay, in full, as the URL column shows and links it. */
const runAddress = (href: string) => new URL(href, window.location.origin).toString();

/**
 * Runs of the automatic rerun of failures: Date, Name, Executor, URL, Failed (and Unstable for
 * UI runs, counted out of Failed as everywhere). Name is the run's name over its key (a run
 * named by its start time would repeat Date otherwise); URL is the run's page. Paged like the
 * run lists, 15 rows by default.
 */
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
  const [page, setPage] = useState(0);
  const [size, setSize] = useState<number>(DEFAULT_RUN_PAGE_SIZE);
  if (list.runs.length === 0) {
    return (
      <Typography color="text.secondary" sx={{ py: 4, textAlign: "center" }}>
        No runs by the executor "{list.executor}" in this period: the automatic rerun of failures
        has not run here.
      </Typography>
    );
  }
  const last = Math.max(0, Math.ceil(list.runs.length / size) - 1);
  const shown = Math.min(page, last);
  const rows = list.runs.slice(shown * size, (shown + 1) * size);
  return (
    <>
      <TableContainer sx={{ maxHeight: height }}>
        <Table size="small" stickyHeader aria-label="Daily rerun-failed runs">
          <TableHead>
            <TableRow>
              <TableCell>Date</TableCell>
              <TableCell>Name</TableCell>
              <TableCell>Executor</TableCell>
              <TableCell>URL</TableCell>
              <TableCell align="right">Failed</TableCell>
              {family === "frontend" && <TableCell align="right">Unstable</TableCell>}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((run) => {
              const href = runHref(family, run.key);
              return (
                <TableRow
                  key={run.key}
                  hover
                  sx={{ cursor: "pointer" }}
                  onClick={(event) => {
                    if ((event.target as HTMLElement).closest("a")) return;
                    void navigate(href);
                  }}
                >
                  <TableCell sx={{ whiteSpace: "nowrap" }}>{formatUtc(run.createdAt)}</TableCell>
                  <TableCell>
                    <Link
                      component={RouterLink}
                      to={href}
                      underline="hover"
                      sx={{ fontWeight: 600 }}
                    >
                      {run.name}
                    </Link>
                    <Typography variant="caption" color="text.secondary" sx={{ display: "block" }}>
                      {run.key}
                    </Typography>
                  </TableCell>
                  <TableCell>{run.executor}</TableCell>
                  <TableCell sx={{ wordBreak: "break-all" }}>
                    <Link component={RouterLink} to={href} aria-label={`Open run ${run.key}`}>
                      {runAddress(href)}
                    </Link>
                  </TableCell>
                  <TableCell align="right">{run.failed}</TableCell>
                  {family === "frontend" && <TableCell align="right">{run.unstable}</TableCell>}
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePagination
        component="div"
        count={list.runs.length}
        page={shown}
        rowsPerPage={size}
        rowsPerPageOptions={[...RUN_PAGE_SIZES]}
        onPageChange={(_event, next) => setPage(next)}
        onRowsPerPageChange={(event) => {
          setSize(Number(event.target.value));
          setPage(0);
        }}
      />
    </>
  );
}
