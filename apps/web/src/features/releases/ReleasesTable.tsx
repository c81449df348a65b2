import type { ReleaseReportRow } from "@assay/core";
import Link from "@mui/material/Link";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";

function released(row: ReleaseReportRow): string {
  if (row.released === null) return "Not in Jira";
  if (!row.released) return "Unreleased";
  return row.releaseDate ?? "Released";
}

/** The report's rows under the chart: newest version first, as a lead reads a release list. */
export function ReleasesTable({ rows }: { rows: ReleaseReportRow[] }) {
  return (
    <Table size="small" aria-label="Release report">
      <TableHead>
        <TableRow>
          <TableCell>Release Version</TableCell>
          <TableCell align="right">Total OQ</TableCell>
          <TableCell align="right">Incidents</TableCell>
          <TableCell align="right">Closed</TableCell>
          <TableCell align="right">Open</TableCell>
          <TableCell>Released</TableCell>
          <TableCell>Release Notes</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {[...rows].reverse().map((row) => (
          <TableRow key={row.releaseVersion} hover>
            <TableCell component="th" scope="row">
              {row.releaseVersion}
            </TableCell>
            <TableCell align="right">{row.totalOQ}</TableCell>
            <TableCell align="right">{row.incidentCount}</TableCell>
            <TableCell align="right">{row.incidentClose}</TableCell>
            <TableCell align="right">{row.incidentOpen}</TableCell>
            <TableCell>{released(row)}</TableCell>
            <TableCell>
              {row.releaseNotesUrl ? (
                <Link href={row.releaseNotesUrl} target="_blank" rel="noopener noreferrer">
                  Release notes {row.releaseVersion}
                </Link>
              ) : (
                "—"
              )}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
