import type { LoadStat } from "@assay/core";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";

const integer = new Intl.NumberFormat("en-US");
const decimal = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });

const ms = (value: number | null) => (value === null ? "–" : integer.format(value));

const NUMBER_COLUMNS = [
  ["Requests", (s: LoadStat) => integer.format(s.requests)],
  ["Failures", (s: LoadStat) => integer.format(s.failures)],
  ["Median (ms)", (s: LoadStat) => ms(s.median_ms)],
  ["95%ile (ms)", (s: LoadStat) => ms(s.p95_ms)],
  ["99%ile (ms)", (s: LoadStat) => ms(s.p99_ms)],
  ["Requests/s", (s: LoadStat) => decimal.format(s.requests_per_s)],
] as const;

/** Endpoint rows first, in the report's order; the Aggregated total last, whatever the input. */
export function orderStats(stats: readonly LoadStat[]): LoadStat[] {
  return [...stats.filter((s) => !s.aggregated), ...stats.filter((s) => s.aggregated)];
}

/** A load run's per-endpoint statistics, as Locust reports them; the total row is bold. */
export function LoadStatsTable({ stats }: { stats: readonly LoadStat[] }) {
  if (stats.length === 0) {
    return (
      <Typography color="text.secondary">
        No statistics were uploaded for this run (Locust's stats CSV gives them).
      </Typography>
    );
  }
  return (
    <TableContainer sx={{ border: 1, borderColor: "divider", borderRadius: 1, maxHeight: 480 }}>
      <Table stickyHeader aria-label="Statistics per endpoint">
        <TableHead>
          <TableRow>
            <TableCell sx={{ width: 90 }}>Method</TableCell>
            <TableCell>Name</TableCell>
            {NUMBER_COLUMNS.map(([label]) => (
              <TableCell key={label} align="right">
                {label}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {orderStats(stats).map((stat) => {
            const bold = stat.aggregated ? { fontWeight: 700 } : undefined;
            return (
              <TableRow key={stat.id} sx={stat.aggregated ? { bgcolor: "grey.50" } : undefined}>
                <TableCell sx={{ fontFamily: "monospace", ...bold }}>{stat.method}</TableCell>
                <TableCell sx={{ overflowWrap: "anywhere", ...bold }}>{stat.name}</TableCell>
                {NUMBER_COLUMNS.map(([label, value]) => (
                  <TableCell
                    key={label}
                    align="right"
                    sx={{
                      ...bold,
                      ...(label === "Failures" && stat.failures > 0
                        ? { color: "status.failed" }
                        : undefined),
                    }}
                  >
                    {value(stat)}
                  </TableCell>
                ))}
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
