import { DEFAULT_RUN_PAGE_SIZE, formatDuration, isFinalStatus, type Build } from "@assay/core";
import Box from "@mui/material/Box";
import Link from "@mui/material/Link";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { Link as RouterLink } from "react-router";
import { Clipped, ShortUtc } from "../../components/TableCells";
import { DEFAULT_FILTERS, reportHref } from "../runs/report-url";
import { BuildPhaseChip, BuildStatusChip } from "./BuildChips";
import type { BuildColumn } from "./BuildListTable";
import type { BuildTab } from "../../components/builds-url";
import { StopBuildButton } from "./StopBuildButton";

/** The columns of the three build tables: the record's fields of spec section 3. */

/** The run a build reports into, in Test Reports (the family's results dialog). */
export function runHref(build: Build): string {
  const key = build.test_run_key;
  const dialog =
    build.family === "load"
      ? ({ kind: "load", key } as const)
      : ({ kind: build.family, key, testKey: null } as const);
  return reportHref({
    tab: build.family,
    page: 1,
    size: DEFAULT_RUN_PAGE_SIZE,
    dialog,
    filters: DEFAULT_FILTERS,
  });
}

/** End minus start; a running build counts up to now. */
export function buildDurationMs(build: Build, now: number): number {
  const end = build.endTime ? Date.parse(build.endTime) : now;
  return Math.max(0, end - Date.parse(build.startTime));
}

const text = (
  id: string,
  label: string,
  value: (b: Build) => string | number | null,
  width = 140,
) =>
  ({
    id,
    label,
    render: (b: Build) => <Clipped value={value(b)} width={width} />,
  }) satisfies BuildColumn<Build>;

function nameColumn(): BuildColumn<Build> {
  return {
    id: "run",
    label: "Run",
    render: (build) => (
      <Box sx={{ minWidth: 0 }}>
        <Link component={RouterLink} to={runHref(build)} underline="hover" sx={{ fontWeight: 600 }}>
          {build.TEST_RUN_NAME}
        </Link>
        <Typography variant="caption" color="text.secondary" sx={{ display: "block" }}>
          #{build.id} · {build.EXECUTOR}
          {build.rerunOf ? ` · rerun of ${build.rerunOf}` : ""}
          {build.region === "CHINA" ? " · CHINA" : ""}
        </Typography>
      </Box>
    ),
  };
}

function progressColumns(now: number, logHref: (b: Build) => string): BuildColumn<Build>[] {
  return [
    {
      id: "phase",
      label: "Phase",
      render: (b) => (
        <BuildPhaseChip phase={b.currentPhase} active={!isFinalStatus(b.buildStatus)} />
      ),
    },
    {
      id: "status",
      label: "Status",
      render: (b) => (
        <Tooltip title={b.statusMessage ?? ""}>
          <span>
            <BuildStatusChip status={b.buildStatus} />
          </span>
        </Tooltip>
      ),
    },
    { id: "start", label: "Start (UTC)", render: (b) => <ShortUtc iso={b.startTime} /> },
    { id: "end", label: "End (UTC)", render: (b) => <ShortUtc iso={b.endTime} /> },
    {
      id: "duration",
      label: "Duration",
      numeric: true,
      render: (b) => formatDuration(buildDurationMs(b, now)),
    },
    {
      id: "log",
      label: "Log",
      render: (b) => (
        <Link component={RouterLink} to={logHref(b)} aria-label={`Log of build ${b.id}`}>
          Log
        </Link>
      ),
    },
    {
      id: "stop",
      label: "Stop",
      render: (b) =>
        isFinalStatus(b.buildStatus) ? "" : <StopBuildButton build={b} size="small" />,
    },
  ];
}

export function buildColumns(
  tab: BuildTab,
  now: number,
  logHref: (b: Build) => string,
): BuildColumn<Build>[] {
  const branch = text("branch", "Branch", (b) => b.sourceVersion, 100);
  const tag = text("tag", "Tag", (b) => b.TEST_TAG, 120);
  let fields: BuildColumn<Build>[];
  if (tab === "frontend") {
    fields = [text("site", "Site", (b) => b.NORA_SITE, 200), tag, branch];
  } else if (tab === "backend") {
    fields = [text("env", "Env", (b) => b.ENVIRONMENT ?? b.BASE_URL), tag, branch];
  } else {
    fields = [
      text("env", "Env", (b) => b.ENV),
      text("host", "Host", (b) => b.HOST),
      text("file", "Test File", (b) => b.TEST_FILE),
      { ...text("users", "Users", (b) => b.USERS), numeric: true },
      text("runtime", "Run Time", (b) => b.RUN_TIME),
      { ...text("spawn", "Spawn Rate", (b) => b.SPAWN_RATE), numeric: true },
    ];
  }
  return [nameColumn(), ...fields, ...progressColumns(now, logHref)];
}
