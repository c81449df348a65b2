import {
  formatDuration,
  type DisplayStatus,
  type FailedTagGroup,
  type StatusCounts,
} from "@assay/core";
import Box from "@mui/material/Box";
import FormControlLabel from "@mui/material/FormControlLabel";
import Link from "@mui/material/Link";
import Paper from "@mui/material/Paper";
import Switch from "@mui/material/Switch";
import Typography from "@mui/material/Typography";
import { memo, useMemo, type ReactNode } from "react";
import { FailedSummary } from "../backend/FailedSummary";
import { HIDEABLE_STATUSES } from "../report-url";
import { RerunButton } from "../RerunButton";
import { STATUS_LOOK } from "../../../components/StatusLabel";

/** One box of the summary row: a label, its figure, and the box's own controls. */
function InfoBox({
  label,
  value,
  color,
  children,
}: {
  label: string;
  value?: ReactNode;
  color?: string;
  children?: ReactNode;
}) {
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-label={label}
      sx={{ px: 1.5, py: 1, minWidth: 0, display: "flex", flexDirection: "column", gap: 0.25 }}
    >
      <Typography variant="overline" color="text.secondary" noWrap sx={{ lineHeight: 1.6 }}>
        {label}
      </Typography>
      {value !== undefined && (
        <Typography
          component="p"
          sx={{
            fontSize: "1.375rem",
            fontWeight: 600,
            lineHeight: 1.2,
            whiteSpace: "nowrap",
            color,
          }}
        >
          {value}
        </Typography>
      )}
      {children}
    </Paper>
  );
}

// Memoized with plain props: a Hide switch re-renders its own box only.
const StatusBox = memo(function StatusBox({
  runKey,
  runName,
  place,
  status,
  count,
  hidden,
  onHidden,
}: {
  runKey: string;
  runName: string;
  place: string | null;
  status: DisplayStatus;
  count: number;
  hidden: boolean;
  onHidden: (status: DisplayStatus, hidden: boolean) => void;
}) {
  const { label } = STATUS_LOOK[status];
  return (
    <InfoBox label={label} value={count.toLocaleString("en-US")} color={STATUS_LOOK[status].color}>
      <Box sx={{ display: "flex", alignItems: "center", columnGap: 0.5, flexWrap: "wrap" }}>
        <FormControlLabel
          sx={{ mr: 0, ml: -0.5 }}
          control={
            <Switch
              size="small"
              checked={hidden}
              onChange={(event) => onHidden(status, event.target.checked)}
              slotProps={{ input: { "aria-label": `Hide ${label.toLowerCase()} results` } }}
            />
          }
          label="Hide"
        />
        {(status === "failed" || status === "unstable") && (
          <RerunButton
            family="frontend"
            runKey={runKey}
            runName={runName}
            place={place}
            what={status}
            count={count}
          />
        )}
      </Box>
    </InfoBox>
  );
});

/**
 * The info boxes of the Frontend results dialog (memoized: it changes with the Hide switches
 * only): Total, Total Duration, Failed Summary, and one
 * box per status with its Hide switch (and Rerun on Failed and Unstable).
 */
export const ResultsSummary = memo(function ResultsSummary({
  runKey,
  runName,
  place,
  counts,
  wallClockMs,
  testTimeMs,
  groups,
  hidden,
  onHidden,
}: {
  runKey: string;
  /** The run's name and site, for Rerun's question. */
  runName: string;
  place: string | null;
  counts: StatusCounts;
  /** First start to last end (runWallClockMs); null while the run is open. */
  wallClockMs: number | null;
  /** The tests' durations summed (the run's duration_ms). */
  testTimeMs: number;
  groups: readonly FailedTagGroup[] | undefined;
  hidden: ReadonlySet<DisplayStatus>;
  onHidden: (status: DisplayStatus, hidden: boolean) => void;
}) {
  // The same element while the groups are the same: React then skips it on a Hide switch.
  const failedSummary = useMemo(
    () => <FailedSummary groups={groups} buildTab="frontend" runKey={runKey} />,
    [groups, runKey],
  );
  return (
    <Box
      sx={{
        display: "grid",
        // One row at 1280 px and up: the Failed Summary takes what the figures leave.
        gridTemplateColumns: {
          xs: "repeat(2, minmax(0, 1fr))",
          md: "minmax(96px, auto) minmax(136px, auto) minmax(240px, 1fr) 104px 150px 104px 150px",
        },
        gap: 1,
      }}
    >
      <InfoBox label="Total" value={counts.total.toLocaleString("en-US")}>
        {/* The run as one HTML file that opens offline (GET .../report.html, a download). */}
        <Link
          variant="caption"
          href={`/v1/test-runs/${encodeURIComponent(runKey)}/report.html`}
          download
        >
          Download report
        </Link>
        <Link
          variant="caption"
          href={`/v1/test-runs/${encodeURIComponent(runKey)}/report.html?screenshots=true`}
          download
          sx={{ ml: 1 }}
        >
          with screenshots
        </Link>
      </InfoBox>
      <InfoBox
        label="Total Duration"
        value={wallClockMs === null ? "Still open" : formatDuration(wallClockMs)}
      >
        <Typography variant="caption" color="text.secondary" noWrap>
          Summed test time {formatDuration(testTimeMs)}
        </Typography>
      </InfoBox>
      <InfoBox label="Failed Summary">{failedSummary}</InfoBox>
      {HIDEABLE_STATUSES.map((status) => (
        <StatusBox
          key={status}
          runKey={runKey}
          runName={runName}
          place={place}
          status={status}
          count={counts[status]}
          hidden={hidden.has(status)}
          onHidden={onHidden}
        />
      ))}
    </Box>
  );
});
