import type { DailyChart } from "@assay/core";
import Box from "@mui/material/Box";
import Link from "@mui/material/Link";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import Typography from "@mui/material/Typography";
import { useTheme } from "@mui/material/styles";
import { LineChart } from "@mui/x-charts/LineChart";
import { useState } from "react";
import { Link as RouterLink } from "react-router";
import { monthDay, runHref } from "./run-links";

const SERIES = [
  { key: "total", label: "Total" },
  { key: "passed", label: "Passed" },
  { key: "failed", label: "Failed" },
  { key: "unstable", label: "Unstable" },
  { key: "skipped", label: "Skipped" },
] as const;

/**
 * A series' values per day; none (a gap in the line) for a day without runs, such as today
 * before the nightly run: drawn as zeros, every line fell to the axis each morning.
 */
export function dailyValues(
  days: DailyChart["days"],
  key: (typeof SERIES)[number]["key"],
): (number | null)[] {
  return days.map((d) => (d.runs.length === 0 ? null : d[key]));
}

/**
 * The daily robot's runs per day: total, passed, failed, unstable (counted out of failed, as on
 * every screen) and skipped, month-day dates, a tooltip
 * per day; a click on a day lists that day's runs, each opening its results.
 */
export function DailyLineChart({
  chart,
  family,
  height,
}: {
  chart: DailyChart;
  family: "frontend" | "backend";
  height: number;
}) {
  const theme = useTheme();
  const [selected, setSelected] = useState<string | null>(null);
  const colors = {
    total: theme.palette.primary.main,
    passed: theme.palette.success.main,
    failed: theme.palette.error.main,
    unstable: theme.palette.secondary.main,
    skipped: theme.palette.warning.main,
  };
  const day = chart.days.find((d) => d.date === selected);
  return (
    <Box>
      <LineChart
        height={height}
        xAxis={[
          {
            scaleType: "point",
            data: chart.days.map((d) => d.date),
            valueFormatter: (date: string) => monthDay(date),
          },
        ]}
        series={SERIES.map((s) => ({
          id: s.key,
          label: s.label,
          data: dailyValues(chart.days, s.key),
          color: colors[s.key],
          showMark: chart.days.length <= 30,
          curve: "linear",
        }))}
        onAxisClick={(_event, data) => {
          const date = data ? chart.days[data.dataIndex]?.date : undefined;
          if (date) setSelected(date);
        }}
        margin={{ right: 24 }}
      />
      <Typography variant="caption" color="text.secondary">
        Click a day to list its runs.
      </Typography>
      {selected && (
        <Box sx={{ mt: 1 }} aria-label={`Runs on ${monthDay(selected)}`}>
          <Typography variant="subtitle2">Runs on {monthDay(selected)}</Typography>
          {!day || day.runs.length === 0 ? (
            <Typography variant="body2" color="text.secondary">
              No daily runs on {monthDay(selected)}.
            </Typography>
          ) : (
            <List dense disablePadding>
              {day.runs.map((run) => (
                <ListItem key={run.key} disableGutters>
                  <Link component={RouterLink} to={runHref(family, run.key)}>
                    {run.name}
                  </Link>
                  <Typography variant="body2" color="text.secondary" sx={{ ml: 1 }}>
                    {run.total} total · {run.passed} passed · {run.failed} failed ·{" "}
                    {run.unstable > 0 ? `${run.unstable} unstable · ` : ""}
                    {run.skipped} skipped
                  </Typography>
                </ListItem>
              ))}
            </List>
          )}
        </Box>
      )}
    </Box>
  );
}
