import {
  formatDuration,
  type DisplayStatus,
  type FailedTagGroup,
  type StatusCounts,
} from "@assay/core";
import Replay from "@mui/icons-material/Replay";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import FormControlLabel from "@mui/material/FormControlLabel";
import Paper from "@mui/material/Paper";
import Switch from "@mui/material/Switch";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { memo, useMemo, type ReactNode } from "react";
import { FailedSummary } from "../backend/FailedSummary";
import { HIDEABLE_STATUSES } from "../report-url";
import { STATUS_LOOK } from "../../../components/StatusLabel";

/** Reruns arrive with the builds capability; their place is kept, disabled, and says so. */
export const RERUN_LATER = "Rerun comes with the builds issue";

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

function RerunButton({ what }: { what: "failed" | "unstable" }) {
  return (
    <Tooltip title={RERUN_LATER}>
      {/* A disabled button gets no pointer events; the span carries the tooltip. */}
      <span>
        <Button
          size="small"
          startIcon={<Replay />}
          disabled
          aria-label={`Rerun ${what}`}
          sx={{ px: 0.5, minWidth: 0 }}
        >
          Rerun
        </Button>
      </span>
    </Tooltip>
  );
}

// Memoized with plain props: a Hide switch re-renders its own box only.
const StatusBox = memo(function StatusBox({
  status,
  count,
  hidden,
  onHidden,
}: {
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
        {(status === "failed" || status === "unstable") && <RerunButton what={status} />}
      </Box>
    </InfoBox>
  );
});

/**
 * The info boxes of the Frontend results dialog (memoized: it changes with the Hide switches
 * only): Total, Total Duration, Failed Summary, and one
 * box per status with its Hide switch (and the Rerun place on Failed and Unstable).
 */
export const ResultsSummary = memo(function ResultsSummary({
  counts,
  durationMs,
  groups,
  hidden,
  onHidden,
}: {
  counts: StatusCounts;
  durationMs: number;
  groups: readonly FailedTagGroup[] | undefined;
  hidden: ReadonlySet<DisplayStatus>;
  onHidden: (status: DisplayStatus, hidden: boolean) => void;
}) {
  // The same element while the groups are the same: React then skips it on a Hide switch.
  const failedSummary = useMemo(() => <FailedSummary groups={groups} />, [groups]);
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
      <InfoBox label="Total" value={counts.total.toLocaleString("en-US")} />
      <InfoBox label="Total Duration" value={formatDuration(durationMs)} />
      <InfoBox label="Failed Summary">{failedSummary}</InfoBox>
      {HIDEABLE_STATUSES.map((status) => (
        <StatusBox
          key={status}
          status={status}
          count={counts[status]}
          hidden={hidden.has(status)}
          onHidden={onHidden}
        />
      ))}
    </Box>
  );
});
