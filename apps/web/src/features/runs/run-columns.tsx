import { formatDuration, regionLabel, runWallClockMs, type Catalog } from "@assay/core";
import Box from "@mui/material/Box";
import Link from "@mui/material/Link";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { Link as RouterLink } from "react-router";
import { clip, Clipped, dash, ShortUtc } from "../../components/TableCells";
import { reportHref as loadReportHref } from "./load/LoadRunDialog";
import type { RunColumn } from "./RunListTable";
import type { RunOf } from "./use-runs";

/** Columns of the three run tables: the fields of spec section 3, numbers right-aligned. */

interface CommonRun {
  test_run_key: string;
  test_run_name: string;
  created_at: string;
}

function Count({ value, color }: { value: number; color?: string }) {
  return (
    <Box component="span" sx={{ color: value > 0 ? color : "text.secondary", fontWeight: 600 }}>
      {value}
    </Box>
  );
}

/** The run's name over its key, each cut to `width` (the Load table has the least room). */
function runColumn<T extends CommonRun>(href: (run: T) => string, width = 195): RunColumn<T> {
  return {
    id: "run",
    label: "Run",
    render: (run) => (
      <Box sx={{ minWidth: 0 }}>
        <Link
          component={RouterLink}
          to={href(run)}
          underline="hover"
          title={run.test_run_name}
          sx={{ ...clip(width), fontWeight: 600 }}
        >
          {run.test_run_name}
        </Link>
        <Typography variant="caption" color="text.secondary" component="div">
          <Clipped value={run.test_run_key} width={width} />
        </Typography>
      </Box>
    ),
  };
}

/** When the run was stored: month-day and time, the full timestamp on hover. */
function createdColumn<T extends CommonRun>(): RunColumn<T> {
  return {
    id: "created",
    label: "Created (UTC)",
    render: (run) => <ShortUtc iso={run.created_at} />,
  };
}

/** A text column, one line high: a long value is cut to `width` and whole on hover. */
function text<T>(
  id: string,
  label: string,
  value: (run: T) => string | null,
  width = 180,
  lines = 1,
): RunColumn<T> {
  return {
    id,
    label,
    render: (run) => <Clipped value={value(run)} width={width} lines={lines} />,
  };
}

/** A right-aligned count, in its status colour when above zero. */
function count<T>(
  id: string,
  label: string,
  value: (run: T) => number,
  color?: string,
): RunColumn<T> {
  return { id, label, numeric: true, render: (run) => <Count value={value(run)} color={color} /> };
}

interface TimedRun {
  duration_ms: number;
  started_at: string | null;
  finished_at: string | null;
}

/** The run's wall-clock time; the tests' summed time is named in its tooltip. */
const durationColumn = <T extends TimedRun>(): RunColumn<T> => ({
  id: "duration",
  label: "Duration",
  numeric: true,
  render: (run) => {
    const wallClock = runWallClockMs(run);
    return (
      <Tooltip title={`Summed test time ${formatDuration(run.duration_ms)}`}>
        <Box component="span" sx={{ whiteSpace: "nowrap" }}>
          {wallClock === null ? "Still open" : formatDuration(wallClock)}
        </Box>
      </Tooltip>
    );
  },
});

type Href<T> = (run: T) => string;

export function frontendColumns(href: Href<RunOf["frontend"]>): RunColumn<RunOf["frontend"]>[] {
  return [
    runColumn(href),
    {
      id: "site",
      label: "Site / Platform",
      render: (run) => (
        <>
          <Clipped value={run.nora_site} width={175} />
          <Typography variant="caption" color="text.secondary" sx={{ whiteSpace: "nowrap" }}>
            {run.is_next_gen ? "NextGen" : "Legacy"}
            {run.is_china_region ? " · China" : ""}
          </Typography>
        </>
      ),
    },
    // Two lines: the run and site cells beside it are two lines tall already.
    text("executor", "Executor", (run) => run.executor, 165, 2),
    count("total", "Total", (run) => run.total),
    count("passed", "Passed", (run) => run.passed, "status.passed"),
    count("failed", "Failed", (run) => run.failed, "status.failed"),
    count("skipped", "Skipped", (run) => run.skipped, "status.skipped"),
    count("unstable", "Unstable", (run) => run.unstable, "status.unstable"),
    durationColumn(),
    createdColumn(),
  ];
}

export function backendColumns(href: Href<RunOf["backend"]>): RunColumn<RunOf["backend"]>[] {
  return [
    runColumn(href),
    text("env", "Env / Base URL", (run) => run.env ?? run.baseurl),
    text("executor", "Executor", (run) => run.executor),
    {
      id: "region",
      label: "Region",
      render: (run) => (run.is_china_region ? "China" : "US"),
    },
    count("total", "Total", (run) => run.total),
    count("passed", "Passed", (run) => run.passed, "status.passed"),
    count("failed", "Failed", (run) => run.failed, "status.failed"),
    count("skipped", "Skipped", (run) => run.pending, "status.skipped"),
    durationColumn(),
    createdColumn(),
  ];
}

export function loadColumns(
  href: Href<RunOf["load"]>,
  regionLabels: Catalog["regionLabels"] | undefined,
): RunColumn<RunOf["load"]>[] {
  return [
    runColumn(href, 180),
    {
      id: "env",
      label: "Env / Host",
      render: (run) => (
        <>
          <Clipped value={run.env} width={160} />
          <Typography variant="caption" color="text.secondary" component="div">
            <Clipped value={run.host} width={160} />
          </Typography>
        </>
      ),
    },
    text("test_file", "Test file", (run) => run.test_file, 140),
    text("executor", "Executor", (run) => run.executor, 130),
    { id: "users", label: "Users", numeric: true, render: (run) => dash(run.users) },
    text("run_time", "Run time", (run) => run.run_time),
    { id: "spawn_rate", label: "Spawn rate", numeric: true, render: (run) => dash(run.spawn_rate) },
    text("load_region", "Load region", (run) => regionLabel(run.load_region, regionLabels), 90),
    createdColumn(),
    {
      id: "report",
      label: "Report",
      render: (run) => {
        const href = loadReportHref(run.report_location);
        return href ? (
          <Link href={href} target="_blank" rel="noopener noreferrer">
            Report
          </Link>
        ) : (
          "–"
        );
      },
    },
  ];
}
