import {
  DEFAULT_RUN_PAGE_SIZE,
  formatUtc,
  type DiffRun,
  type DiffTest,
  type RunDiff,
} from "@assay/core";
import AddCircleOutline from "@mui/icons-material/AddCircleOutline";
import CancelOutlined from "@mui/icons-material/CancelOutlined";
import CheckCircleOutline from "@mui/icons-material/CheckCircleOutline";
import East from "@mui/icons-material/East";
import RemoveCircleOutline from "@mui/icons-material/RemoveCircleOutline";
import Replay from "@mui/icons-material/Replay";
import Timer from "@mui/icons-material/TimerOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Link from "@mui/material/Link";
import Paper from "@mui/material/Paper";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";
import { Link as RouterLink, useParams } from "react-router";
import { ApiError } from "../../api/client";
import { DEFAULT_FILTERS, reportHref } from "../runs/report-url";
import { DiffSection } from "./DiffSection";
import { useRunDiff } from "./use-run-diff";

type Family = "frontend" | "backend";

/** A run's results dialog, or one result in it (Backend's with ?be=1). */
function runHref(family: Family, key: string, testKey: string | null = null): string {
  return reportHref({
    tab: family,
    page: 1,
    size: DEFAULT_RUN_PAGE_SIZE,
    dialog: { kind: family, key, testKey },
    filters: DEFAULT_FILTERS,
  });
}

const icon = (Icon: typeof East, color: string) => (
  <Icon sx={{ fontSize: 20, color }} aria-hidden />
);

interface SectionLook {
  key: keyof Omit<RunDiff, "a" | "b" | "slowerThan">;
  title: string;
  hint: string;
  icon: ReactNode;
  /** A removed test is only in run a: its link goes there. */
  inA?: boolean;
  open?: boolean;
}

function sectionLooks(diff: RunDiff): SectionLook[] {
  const { percent, ms } = diff.slowerThan;
  return [
    {
      key: "newFailures",
      title: "New failures",
      hint: "failed in b, not in a",
      icon: icon(CancelOutlined, "status.failed"),
      open: true,
    },
    {
      key: "fixed",
      title: "Fixed",
      hint: "failed in a, passed in b",
      icon: icon(CheckCircleOutline, "status.passed"),
      open: true,
    },
    {
      key: "stillFailing",
      title: "Still failing",
      hint: "failed in both",
      icon: icon(CancelOutlined, "text.secondary"),
    },
    {
      key: "newlyFlaky",
      title: "Newly flaky",
      hint: "passed on a retry in b, not flaky in a",
      icon: icon(Replay, "status.unstable"),
    },
    {
      key: "slower",
      title: "Slower",
      hint: `passed in both, b took over ${percent}% and over ${ms} ms longer`,
      icon: icon(Timer, "status.unstable"),
    },
    { key: "added", title: "Added", hint: "in b only", icon: icon(AddCircleOutline, "info.main") },
    {
      key: "removed",
      title: "Removed",
      hint: "in a only",
      icon: icon(RemoveCircleOutline, "text.secondary"),
      inA: true,
    },
  ];
}

function RunCard({ label, run }: { label: string; run: DiffRun }) {
  const family = run.family === "backend" ? "backend" : "frontend";
  return (
    <Paper variant="outlined" sx={{ p: 1.5, flex: 1, minWidth: 0 }}>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Link
        component={RouterLink}
        to={runHref(family, run.key)}
        sx={{ display: "block", fontWeight: 600, overflowWrap: "anywhere" }}
      >
        {run.name}
      </Link>
      <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: "anywhere" }}>
        {run.key} · <span title={run.createdAt}>{formatUtc(run.createdAt)}</span> ·{" "}
        {run.total.toLocaleString("en-US")} tests
      </Typography>
    </Paper>
  );
}

function DiffBody({ diff }: { diff: RunDiff }) {
  const family: Family = diff.b.family === "backend" ? "backend" : "frontend";
  return (
    <>
      <Box sx={{ display: "flex", gap: 1.5, alignItems: "center" }}>
        <RunCard label="a: earlier run" run={diff.a} />
        <East aria-label="compared with" sx={{ color: "text.secondary" }} />
        <RunCard label="b: later run" run={diff.b} />
      </Box>
      <Box>
        {sectionLooks(diff).map((look) => (
          <DiffSection
            key={look.key}
            id={`diff-${look.key}`}
            title={look.title}
            hint={look.hint}
            icon={look.icon}
            tests={diff[look.key]}
            defaultExpanded={look.open ?? false}
            resultHref={(test: DiffTest) =>
              runHref(family, look.inA ? diff.a.key : diff.b.key, test.testRunTestId)
            }
          />
        ))}
      </Box>
    </>
  );
}

/**
 * Compare (/diff/:a/:b): what changed from run a to run b of one family, section by section,
 * each test linked to its result and its history. Reached from a run dialog's "Compare with
 * previous" and from two runs ticked in a run list.
 */
export function RunDiffPage() {
  const { a = "", b = "" } = useParams();
  const diff = useRunDiff(a, b);
  let body: ReactNode;
  if (diff.isPending) {
    body = (
      <Box aria-label="Loading the comparison" aria-busy>
        <Skeleton height={72} />
        {Array.from({ length: 7 }, (_, row) => (
          <Skeleton key={row} height={48} />
        ))}
      </Box>
    );
  } else if (diff.isError) {
    const message =
      diff.error instanceof ApiError
        ? diff.error.message
        : "The comparison could not be read. Please try again and refresh.";
    body = <Alert severity="error">{message}</Alert>;
  } else body = <DiffBody diff={diff.data} />;
  return <Box sx={{ display: "flex", flexDirection: "column", gap: 2 }}>{body}</Box>;
}
