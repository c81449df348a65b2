import {
  DEFAULT_RUN_PAGE_SIZE,
  TREND_METRIC_LABELS,
  type EndpointTrend,
  type LoadTrend,
} from "@assay/core";
import WarningAmberOutlined from "@mui/icons-material/WarningAmberOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import Link from "@mui/material/Link";
import Skeleton from "@mui/material/Skeleton";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { useState, type ReactNode } from "react";
import { Link as RouterLink, useParams } from "react-router";
import { ApiError } from "../../api/client";
import { DEFAULT_FILTERS, reportHref } from "../runs/report-url";
import { TrendCharts } from "./TrendCharts";
import { useLoadTrend } from "./use-load-trend";

const endpointLabel = (e: EndpointTrend) => (e.method ? `${e.method} ${e.name}` : e.name);

const number = (value: number | null | undefined, digits = 0) =>
  value === null || value === undefined
    ? "–"
    : value.toLocaleString("en-US", { maximumFractionDigits: digits });

function Regressions({ endpoint }: { endpoint: EndpointTrend }) {
  if (endpoint.regressions.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        none
      </Typography>
    );
  }
  return (
    <Chip
      size="small"
      color="warning"
      variant="outlined"
      icon={<WarningAmberOutlined />}
      label={`Regressed: ${endpoint.regressions.map((m) => TREND_METRIC_LABELS[m]).join(", ")}`}
    />
  );
}

/** The endpoints with the asked-for run's figures; a click shows an endpoint's charts. */
function EndpointTable(props: {
  endpoints: readonly EndpointTrend[];
  selected: string;
  onSelect: (label: string) => void;
}) {
  return (
    <Table size="small" aria-label="Endpoints">
      <TableHead>
        <TableRow>
          <TableCell sx={{ fontWeight: 600 }}>Endpoint</TableCell>
          {(["p50", "p95", "rps", "errorRate"] as const).map((metric) => (
            <TableCell key={metric} align="right" sx={{ fontWeight: 600, whiteSpace: "nowrap" }}>
              {TREND_METRIC_LABELS[metric]}
            </TableCell>
          ))}
          <TableCell sx={{ fontWeight: 600 }}>Against the previous runs</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {props.endpoints.map((endpoint) => {
          const label = endpointLabel(endpoint);
          const last = endpoint.points[endpoint.points.length - 1];
          return (
            <TableRow
              key={label}
              hover
              selected={label === props.selected}
              onClick={() => props.onSelect(label)}
              sx={{ cursor: "pointer" }}
            >
              <TableCell>
                <Link
                  component="button"
                  type="button"
                  underline="hover"
                  onClick={() => props.onSelect(label)}
                  aria-pressed={label === props.selected}
                  sx={{ fontWeight: endpoint.aggregated ? 600 : 400, textAlign: "left" }}
                >
                  {label}
                </Link>
              </TableCell>
              <TableCell align="right">{number(last?.p50)}</TableCell>
              <TableCell align="right">{number(last?.p95)}</TableCell>
              <TableCell align="right">{number(last?.rps, 1)}</TableCell>
              <TableCell align="right">{number(last?.errorRate, 2)}</TableCell>
              <TableCell>
                <Regressions endpoint={endpoint} />
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}

function TrendBody({ trend }: { trend: LoadTrend }) {
  const [picked, setPicked] = useState<string | null>(null);
  const first = trend.endpoints[0];
  const selected = trend.endpoints.find((e) => endpointLabel(e) === picked) ?? first ?? null;
  const runHref = reportHref({
    tab: "load",
    page: 1,
    size: DEFAULT_RUN_PAGE_SIZE,
    dialog: { kind: "load", key: trend.runKey },
    filters: DEFAULT_FILTERS,
  });
  const { window, percent, errorPoints } = trend.rule;
  const regressed = trend.endpoints.filter((e) => e.regressions.length > 0).length;
  return (
    <>
      <Box>
        <Typography variant="h2" component="h2" sx={{ overflowWrap: "anywhere" }}>
          {trend.job.testFile ?? "(no test file)"} on {trend.job.env ?? "(no environment)"}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {trend.runs.length} runs of this job, up to{" "}
          <Link component={RouterLink} to={runHref}>
            {trend.runKey}
          </Link>
          . A regression: p50 or p95 up, or requests/s down, by more than {percent}%, or the error
          rate up by more than {errorPoints} point{errorPoints === 1 ? "" : "s"}, against the median
          of the {window} runs before. Marks on the charts show the regressed runs.
        </Typography>
      </Box>
      {trend.runs.length < 2 && (
        <Alert severity="info">
          This is the job&apos;s first load run: its trend starts with the next run.
        </Alert>
      )}
      <Alert severity={regressed > 0 ? "warning" : "success"} variant="outlined">
        {regressed > 0
          ? `${regressed} of ${trend.endpoints.length} endpoints regressed in ${trend.runKey}.`
          : `No endpoint regressed in ${trend.runKey}.`}
      </Alert>
      <EndpointTable
        endpoints={trend.endpoints}
        selected={selected ? endpointLabel(selected) : ""}
        onSelect={setPicked}
      />
      {selected && (
        <Box aria-label={`Trend of ${endpointLabel(selected)}`} component="section">
          <Typography variant="h3" component="h3" sx={{ mb: 1 }}>
            {endpointLabel(selected)}
          </Typography>
          <TrendCharts endpoint={selected} runs={trend.runs} />
        </Box>
      )}
    </>
  );
}

/**
 * Load trend (/load-trends/:key): per endpoint, p50, p95, requests per second and error rate
 * across the load runs of the run's job, each flagged where it regressed. Reached from a load
 * run's dialog.
 */
export function LoadTrendPage() {
  const { key = "" } = useParams();
  const trend = useLoadTrend(key);
  let body: ReactNode;
  if (trend.isPending) {
    body = (
      <Box aria-label="Loading the trend" aria-busy>
        <Skeleton height={48} />
        {Array.from({ length: 6 }, (_, row) => (
          <Skeleton key={row} height={32} />
        ))}
        <Skeleton variant="rectangular" height={240} />
      </Box>
    );
  } else if (trend.isError) {
    const message =
      trend.error instanceof ApiError
        ? trend.error.message
        : "The trend could not be read. Please try again and refresh.";
    body = <Alert severity="error">{message}</Alert>;
  } else body = <TrendBody trend={trend.data} />;
  return <Box sx={{ display: "flex", flexDirection: "column", gap: 2 }}>{body}</Box>;
}
