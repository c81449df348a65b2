import Autorenew from "@mui/icons-material/Autorenew";
import CancelOutlined from "@mui/icons-material/CancelOutlined";
import CheckCircleOutline from "@mui/icons-material/CheckCircleOutline";
import HelpOutline from "@mui/icons-material/HelpOutline";
import StopCircleOutlined from "@mui/icons-material/StopCircleOutlined";
import TimerOffOutlined from "@mui/icons-material/TimerOffOutlined";
import Chip from "@mui/material/Chip";
import type { SvgIconProps } from "@mui/material/SvgIcon";
import type { ComponentType, ReactElement } from "react";
import type { StatusPalette } from "../../theme/status-colors";
import { humanize } from "../../components/status-words";

interface Look {
  Icon: ComponentType<SvgIconProps>;
  /** A colour of the theme's one status vocabulary. */
  tone: keyof StatusPalette;
}

/**
 * How a build status looks, in the theme's status colours with an icon and the status word
 * (never colour alone): running blue, succeeded green, failed red, stopped grey.
 */
const STATUS_LOOK: Record<string, Look> = {
  IN_PROGRESS: { Icon: Autorenew, tone: "running" },
  SUCCEEDED: { Icon: CheckCircleOutline, tone: "passed" },
  FAILED: { Icon: CancelOutlined, tone: "failed" },
  FAULT: { Icon: CancelOutlined, tone: "failed" },
  TIMED_OUT: { Icon: TimerOffOutlined, tone: "failed" },
  STOPPED: { Icon: StopCircleOutlined, tone: "skipped" },
};

const UNKNOWN: Look = { Icon: HelpOutline, tone: "skipped" };

function StatusChipOf({ value, look }: { value: string; look: Look }): ReactElement {
  const { Icon, tone } = look;
  return (
    <Chip
      size="small"
      variant="outlined"
      label={humanize(value)}
      title={value}
      icon={<Icon aria-hidden />}
      sx={{
        color: `status.${tone}`,
        borderColor: `status.${tone}`,
        fontWeight: 600,
        "& .MuiChip-icon": { color: `status.${tone}` },
      }}
    />
  );
}

/** A build's status (CodeBuild's vocabulary, which every executor maps onto). */
export function BuildStatusChip({ status }: { status: string }) {
  return <StatusChipOf value={status} look={STATUS_LOOK[status] ?? UNKNOWN} />;
}

/** A build's phase: blue while it runs, grey once COMPLETED. */
export function BuildPhaseChip({ phase, active }: { phase: string; active: boolean }) {
  const look: Look = active
    ? { Icon: Autorenew, tone: "running" }
    : { Icon: CheckCircleOutline, tone: "skipped" };
  return <StatusChipOf value={phase} look={look} />;
}
