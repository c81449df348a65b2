import type { DhRow } from "@assay/core";
import ExpandMore from "@mui/icons-material/ExpandMore";
import Accordion from "@mui/material/Accordion";
import AccordionDetails from "@mui/material/AccordionDetails";
import AccordionSummary from "@mui/material/AccordionSummary";
import Alert from "@mui/material/Alert";
import AlertTitle from "@mui/material/AlertTitle";
import Box from "@mui/material/Box";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { DhStatusChip, formatCount } from "./DhStatusChip";

/** Global: one entry per environment, per-table MySQL and Redshift counts, and its errors. */
export function DhGlobalAccordion({ rows }: { rows: DhRow[] }) {
  return (
    <Box>
      {rows.map((row) => {
        const tables = row.tableCounts ?? [];
        // Spec section 8: the Errors panel lists each error's message.
        const errors = [
          ...(row.error ? [row.error] : []),
          ...tables.flatMap(([table, c]) => c.errors.map((e) => `${table}: ${e}`)),
        ];
        return (
          <Accordion key={row.id} defaultExpanded disableGutters variant="outlined">
            <AccordionSummary expandIcon={<ExpandMore />}>
              <Stack direction="row" spacing={2} sx={{ alignItems: "center" }}>
                <Typography sx={{ fontWeight: 600, minWidth: 220 }}>{row.entity}</Typography>
                <DhStatusChip status={row.status} />
              </Stack>
            </AccordionSummary>
            <AccordionDetails>
              {tables.length > 0 && (
                <Table size="small" aria-label={`${row.entity} tables`}>
                  <TableHead>
                    <TableRow>
                      <TableCell>Table</TableCell>
                      <TableCell align="right">MySQL</TableCell>
                      <TableCell align="right">Redshift</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {tables.map(([table, c]) => {
                      const unequal = c.mySqlCount !== c.redshiftCount;
                      return (
                        <TableRow key={table}>
                          <TableCell>{table}</TableCell>
                          <TableCell align="right">{formatCount(c.mySqlCount) || "—"}</TableCell>
                          <TableCell
                            align="right"
                            sx={{
                              color: unequal ? "error.main" : undefined,
                              fontWeight: unequal ? 600 : undefined,
                            }}
                          >
                            {formatCount(c.redshiftCount) || "—"}
                          </TableCell>
                        </TableRow>
                      );
                    })}
                  </TableBody>
                </Table>
              )}
              {errors.length > 0 && (
                <Alert severity="error" sx={{ mt: 2 }}>
                  <AlertTitle>Errors</AlertTitle>
                  {errors.map((e) => (
                    <Typography key={e} variant="body2">
                      {e}
                    </Typography>
                  ))}
                </Alert>
              )}
            </AccordionDetails>
          </Accordion>
        );
      })}
    </Box>
  );
}
