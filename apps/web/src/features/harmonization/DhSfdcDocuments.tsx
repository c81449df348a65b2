import { SFDC_COLUMNS, type DhRow } from "@assay/core";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { DhStatusChip, formatCount } from "./DhStatusChip";

function RecordGrid({ title, records }: { title: string; records: Record<string, unknown>[] }) {
  return (
    <Box sx={{ mt: 3 }}>
      <Typography variant="h3" sx={{ mb: 1 }}>
        {title} ({records.length})
      </Typography>
      <TableContainer component={Paper} variant="outlined" sx={{ maxHeight: 360 }}>
        <Table size="small" stickyHeader aria-label={title}>
          <TableHead>
            <TableRow>
              {SFDC_COLUMNS.map((c) => (
                <TableCell key={c}>{c}</TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {records.map((record, i) => (
              <TableRow key={`${String(record.lead_id)}-${i}`}>
                {SFDC_COLUMNS.map((c) => (
                  <TableCell key={c} sx={{ whiteSpace: "nowrap" }}>
                    {String(record[c] ?? "")}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </Box>
  );
}

/** SFDC: the exported documents; choosing one shows its S3, MySQL and discrepancy records. */
export function DhSfdcDocuments({ rows }: { rows: DhRow[] }) {
  const [chosen, setChosen] = useState<number | null>(null);
  const row = rows.find((r) => r.id === chosen);
  return (
    <Box>
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label="SFDC documents">
          <TableHead>
            <TableRow>
              <TableCell>Document</TableCell>
              <TableCell>Bucket</TableCell>
              <TableCell>Last Updated</TableCell>
              <TableCell align="right">S3 Records</TableCell>
              <TableCell align="right">My Sql Records</TableCell>
              <TableCell align="right">Discrepancies</TableCell>
              <TableCell>Status</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((r) => (
              <TableRow
                key={r.id}
                hover
                selected={r.id === chosen}
                onClick={() => setChosen(r.id)}
                sx={{ cursor: "pointer" }}
              >
                <TableCell>{r.docPath}</TableCell>
                <TableCell>{r.bucket}</TableCell>
                <TableCell>{r.lastUpdated?.slice(0, 19).replace("T", " ")}</TableCell>
                <TableCell align="right">{formatCount(r.sourceCount)}</TableCell>
                <TableCell align="right">{formatCount(r.destinationCount)}</TableCell>
                <TableCell align="right">{formatCount(r.data?.descrepancies.length)}</TableCell>
                <TableCell>
                  <DhStatusChip status={r.status} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {!row && rows.length > 0 && (
        <Typography color="text.secondary" sx={{ mt: 2 }}>
          Choose a document to see its records.
        </Typography>
      )}
      {row?.error && !row.data && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {row.error}
        </Alert>
      )}
      {row?.data && (
        <>
          {row.data.truncated && (
            <Alert severity="info" sx={{ mt: 2 }}>
              The document has more records than one comparison reads; the first ones are shown.
            </Alert>
          )}
          <RecordGrid title="S3 Records" records={row.data.s3Data} />
          <RecordGrid title="My Sql Records" records={row.data.mySqlData} />
          <RecordGrid title="Discrepancies" records={row.data.descrepancies} />
        </>
      )}
    </Box>
  );
}
