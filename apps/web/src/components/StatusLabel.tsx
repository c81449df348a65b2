import type { DisplayStatus, HistoryStatus } from "@assay/core";
import CancelOutlined from "@mui/icons-material/CancelOutlined";
import CheckCircleOutline from "@mui/icons-material/CheckCircleOutline";
import HourglassEmpty from "@mui/icons-material/HourglassEmpty";
import WarningAmberOutlined from "@mui/icons-material/WarningAmberOutlined";
import Box from "@mui/material/Box";
import type { SvgIconProps } from "@mui/material/SvgIcon";
import type { ComponentType } from "react";

interface Look {
  label: string;
  Icon: ComponentType<SvgIconProps>;
  color: string;
}

/** The one status vocabulary (STYLE.md): icon, word and theme colour together. */
export const STATUS_LOOK: Record<DisplayStatus, Look> = {
  passed: { label: "Passed", Icon: CheckCircleOutline, color: "status.passed" },
  failed: { label: "Failed", Icon: CancelOutlined, color: "status.failed" },
  skipped: { label: "Skipped", Icon: HourglassEmpty, color: "status.skipped" },
  unstable: { label: "Unstable", Icon: WarningAmberOutlined, color: "status.unstable" },
};

/** History entries say passed, failed or other (skipped and pending): other shows as skipped. */
export const HISTORY_LOOK: Record<HistoryStatus, Look> = {
  passed: STATUS_LOOK.passed,
  failed: STATUS_LOOK.failed,
  other: { ...STATUS_LOOK.skipped, label: "Other" },
};

/** A result's status as icon and word. */
export function StatusLabel({ status }: { status: DisplayStatus }) {
  const { label, Icon, color } = STATUS_LOOK[status];
  return (
    <Box
      component="span"
      sx={{ display: "inline-flex", alignItems: "center", gap: 0.5, color, fontWeight: 600 }}
    >
      <Icon sx={{ fontSize: 16 }} aria-hidden />
      {label}
    </Box>
  );
}
