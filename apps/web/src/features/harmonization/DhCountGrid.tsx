import type { DhRow } from "@assay/core";
import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import type { ReactNode } from "react";
import { DhStatusChip, formatCount } from "./DhStatusChip";

/**
 * Legacy: one line per entity, source against destination (noSql: the bucket's documents).
 * `action` puts a button on a row (sql: Find missing rows on rows whose counts differ).
 */
export function DhCountGrid({
  rows,
  documents,
  action,
}: {
  rows: DhRow[];
  documents: boolean;
  action?: (row: DhRow) => ReactNode;
}) {
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table size="small" aria-label="Entity counts">
        <TableHead>
          <TableRow>
            <TableCell>Entity</TableCell>
            <TableCell align="right">Source Count</TableCell>
            <TableCell align="right">Destination Count</TableCell>
            <TableCell align="right">Difference</TableCell>
            <TableCell>Status</TableCell>
            {documents && <TableCell>Bucket / Path</TableCell>}
            {documents && <TableCell>Last Updated</TableCell>}
            <TableCell>Reason</TableCell>
            {action && <TableCell />}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.id} hover>
              <TableCell>{row.entity}</TableCell>
              <TableCell align="right">{formatCount(row.sourceCount)}</TableCell>
              <TableCell align="right">{formatCount(row.destinationCount)}</TableCell>
              <TableCell
                align="right"
                sx={{
                  color: row.difference ? "error.main" : undefined,
                  fontWeight: row.difference ? 600 : undefined,
                }}
              >
                {formatCount(row.difference)}
              </TableCell>
              <TableCell>
                <DhStatusChip status={row.status} />
              </TableCell>
              {documents && (
                <TableCell>{row.bucket ? `${row.bucket}/${row.docPath ?? ""}` : ""}</TableCell>
              )}
              {documents && (
                <TableCell>{row.lastUpdated?.slice(0, 19).replace("T", " ") ?? ""}</TableCell>
              )}
              <TableCell sx={{ color: "error.main", maxWidth: 360 }}>{row.error ?? ""}</TableCell>
              {action && <TableCell>{action(row)}</TableCell>}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
