import type { ReleaseReportRow } from "@assay/core";
import Box from "@mui/material/Box";
import { useTheme } from "@mui/material/styles";
import { BarChart } from "@mui/x-charts/BarChart";

const SERIES = [
  { key: "totalOQ", label: "OQ runs" },
  { key: "incidentClose", label: "Incidents closed" },
  { key: "incidentOpen", label: "Incidents open" },
] as const;

/**
 * Spec §2: one stacked bar per release version of totalOQ, incidentClose and incidentOpen,
 * each segment labelled with its figure (none for a zero), versions in release order.
 */
export function ReleasesChart({ rows, height }: { rows: ReleaseReportRow[]; height: number }) {
  const theme = useTheme();
  const colors = {
    totalOQ: theme.palette.primary.main,
    incidentClose: theme.palette.success.main,
    incidentOpen: theme.palette.error.main,
  };
  return (
    <Box role="figure" aria-label="OQ runs and incidents per release version">
      <BarChart
        height={height}
        xAxis={[
          {
            scaleType: "band",
            data: rows.map((row) => row.releaseVersion),
            label: "Release version",
          },
        ]}
        yAxis={[{ label: "Count", tickMinStep: 1 }]}
        series={SERIES.map((s) => ({
          id: s.key,
          label: s.label,
          stack: "release",
          color: colors[s.key],
          data: rows.map((row) => row[s.key]),
          barLabel: (item) => (item.value ? String(item.value) : null),
        }))}
        margin={{ right: 24 }}
      />
    </Box>
  );
}
