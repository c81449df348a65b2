import {
  TREND_METRIC_LABELS,
  type EndpointTrend,
  type LoadPoint,
  type TrendMetric,
  type TrendRun,
} from "@assay/core";
import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import { useTheme } from "@mui/material/styles";
import { LineChart } from "@mui/x-charts/LineChart";

interface Panel {
  title: string;
  metrics: readonly TrendMetric[];
}

const PANELS: readonly Panel[] = [
  { title: "Response time (ms)", metrics: ["p50", "p95"] },
  { title: "Requests per second", metrics: ["rps"] },
  { title: "Error rate (%)", metrics: ["errorRate"] },
];

const value = (point: LoadPoint | null, metric: TrendMetric) => point?.[metric] ?? null;

/**
 * One endpoint's trend: response times, throughput and error rate across the job's runs, a mark
 * (with the run's date and key in the tooltip) on each point that regressed.
 */
export function TrendCharts({ endpoint, runs }: { endpoint: EndpointTrend; runs: TrendRun[] }) {
  const theme = useTheme();
  const colors: Record<TrendMetric, string> = {
    p50: theme.palette.primary.main,
    p95: theme.palette.secondary.main,
    rps: theme.palette.success.main,
    errorRate: theme.palette.error.main,
  };
  const labels = runs.map((run) => `${run.createdAt.slice(5, 10)} ${run.key}`);
  return (
    <Box sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", lg: "repeat(3, 1fr)" }, gap: 2 }}>
      {PANELS.map((panel) => (
        <Paper key={panel.title} variant="outlined" sx={{ p: 1 }}>
          <Typography variant="subtitle2" component="h3" sx={{ px: 1 }}>
            {panel.title}
          </Typography>
          <LineChart
            height={240}
            xAxis={[
              {
                scaleType: "point",
                data: labels,
                // Month-day under the axis; the tooltip names the run as well.
                valueFormatter: (label: string, context) =>
                  context.location === "tick" ? label.slice(0, 5) : label,
              },
            ]}
            series={panel.metrics.map((metric) => ({
              id: metric,
              label: TREND_METRIC_LABELS[metric],
              data: endpoint.points.map((point) => value(point, metric)),
              color: colors[metric],
              curve: "linear",
              // Marks only where the run regressed on this metric: the flag on the chart.
              showMark: ({ index }: { index: number }) =>
                endpoint.points[index]?.regressions.includes(metric) ?? false,
              shape: "diamond",
            }))}
            margin={{ right: 16 }}
          />
        </Paper>
      ))}
    </Box>
  );
}
