import {
  DEFAULT_RUN_PAGE_SIZE,
  formatDuration,
  formatUtc,
  isFinalStatus,
  type Build,
} from "@assay/core";
import Box from "@mui/material/Box";
import Link from "@mui/material/Link";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { Link as RouterLink } from "react-router";
import { DEFAULT_FILTERS, reportHref } from "../runs/report-url";
import { BuildPhaseChip, BuildStatusChip } from "./BuildChips";
import type { BuildColumn } from "./BuildListTable";
import type { BuildTab } from "./builds-url";

/** The columns of the three build tables: the record's fields of spec section 3. */

const dash = (value: string | number | null) => (value === null || value === "" ? "–" : value);

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

function Time({ iso }: { iso: string | null }) {
  if (!iso) return "–";
  return (
    <Tooltip title={iso}>
      <span>{formatUtc(iso)}</span>
    </Tooltip>
  );
}

/** End minus start; a running build counts up to now. */
export function buildDurationMs(build: Build, now: number): number {
  const end = build.endTime ? Date.parse(build.endTime) : now;
  return Math.max(0, end - Date.parse(build.startTime));
}

const text = (id: string, label: string, value: (b: Build) => string | number | null) =>
  ({ id, label, render: (b: Build) => dash(value(b)) }) satisfies BuildColumn<Build>;

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
          #{build.id}
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
    { id: "start", label: "Start", render: (b) => <Time iso={b.startTime} /> },
    { id: "end", label: "End", render: (b) => <Time iso={b.endTime} /> },
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
  ];
}

export function buildColumns(
  tab: BuildTab,
  now: number,
  logHref: (b: Build) => string,
): BuildColumn<Build>[] {
  const common = [text("executor", "Executor", (b) => b.EXECUTOR)];
  const branch = text("branch", "Branch", (b) => b.sourceVersion);
  const tag = text("tag", "Tag", (b) => b.TEST_TAG);
  let fields: BuildColumn<Build>[];
  if (tab === "frontend") {
    fields = [text("site", "Site", (b) => b.NORA_SITE), tag, branch];
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
  return [nameColumn(), ...fields, ...common, ...progressColumns(now, logHref)];
}
