import { dhTotals, type DhRow } from "@assay/core";
import ExpandMore from "@mui/icons-material/ExpandMore";
import Accordion from "@mui/material/Accordion";
import AccordionDetails from "@mui/material/AccordionDetails";
import AccordionSummary from "@mui/material/AccordionSummary";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { DhTotalsBar } from "./DhTotalsBar";
import { DhStatusChip, formatCount } from "./DhStatusChip";

/** Spec section 5: More Details is enabled only when the status contains Success. */
export const moreDetailsEnabled = (status: string) => status.includes("Success");

function Count({ label, value }: { label: string; value: number | null | undefined }) {
  return (
    <Box sx={{ minWidth: 120 }}>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography sx={{ fontWeight: 600 }}>{formatCount(value) || "—"}</Typography>
    </Box>
  );
}

function FileDetails({ row, onClose }: { row: DhRow; onClose: () => void }) {
  const files = row.files ?? [];
  return (
    <Dialog open onClose={onClose} maxWidth="lg" fullWidth aria-labelledby="dh-files-title">
      <DialogTitle id="dh-files-title">{row.entity}: files</DialogTitle>
      <DialogContent>
        <DhTotalsBar totals={dhTotals(files)} />
        <Table size="small" aria-label="Per-file counts">
          <TableHead>
            <TableRow>
              <TableCell>Table</TableCell>
              <TableCell>FHIR File</TableCell>
              <TableCell align="right">Count</TableCell>
              <TableCell>FHIR LITE File</TableCell>
              <TableCell align="right">Count</TableCell>
              <TableCell align="right">Mongo DB</TableCell>
              <TableCell align="right">Difference</TableCell>
              <TableCell>Status</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {files.map((file) => (
              <TableRow key={file.table}>
                <TableCell>{file.table}</TableCell>
                <TableCell sx={{ color: file.missingInS3 ? "error.main" : undefined }}>
                  {file.jsonFile.name ?? (file.missingInS3 ? "Missing in S3" : "—")}
                </TableCell>
                <TableCell align="right">{formatCount(file.jsonFile.count)}</TableCell>
                <TableCell>{file.liteFile.name ?? "—"}</TableCell>
                <TableCell align="right">{formatCount(file.liteFile.count)}</TableCell>
                <TableCell align="right">{formatCount(file.docdb.count)}</TableCell>
                <TableCell align="right" sx={{ color: file.difference ? "error.main" : undefined }}>
                  {formatCount(file.difference)}
                </TableCell>
                <TableCell>
                  <DhStatusChip status={file.status} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}

/** NextGen: one card per entity with its four counts and More Details (per-file rows). */
export function DhFhirAccordion({ rows }: { rows: DhRow[] }) {
  const [open, setOpen] = useState<DhRow | null>(null);
  return (
    <Box>
      {rows.map((row) => (
        <Accordion key={row.id} defaultExpanded disableGutters variant="outlined">
          <AccordionSummary expandIcon={<ExpandMore />}>
            <Stack direction="row" spacing={2} sx={{ alignItems: "center" }}>
              <Typography sx={{ fontWeight: 600, minWidth: 200 }}>{row.entity}</Typography>
              <DhStatusChip status={row.status} />
            </Stack>
          </AccordionSummary>
          <AccordionDetails>
            <Stack
              direction="row"
              spacing={3}
              useFlexGap
              sx={{ alignItems: "center", flexWrap: "wrap" }}
            >
              <Count label="FHIR File" value={row.fhirCount} />
              <Count label="FHIR LITE" value={row.fhirLiteCount} />
              <Count label="Mongo DB" value={row.docdbCount} />
              <Count label="Redshift" value={row.redshiftCount} />
              <Box sx={{ flexGrow: 1 }} />
              {moreDetailsEnabled(row.status) ? (
                <Button variant="outlined" onClick={() => setOpen(row)}>
                  More Details
                </Button>
              ) : (
                <Button variant="outlined" disabled>
                  {row.status}
                </Button>
              )}
            </Stack>
            {row.error && (
              <Typography color="error" variant="body2" sx={{ mt: 1 }}>
                {row.error}
              </Typography>
            )}
          </AccordionDetails>
        </Accordion>
      ))}
      {open && <FileDetails row={open} onClose={() => setOpen(null)} />}
    </Box>
  );
}
