import { DEFECT_TYPES, type DefectType } from "@assay/core";
import AutoFixHigh from "@mui/icons-material/AutoFixHigh";
import BugReportOutlined from "@mui/icons-material/BugReportOutlined";
import BuildOutlined from "@mui/icons-material/BuildOutlined";
import CheckCircleOutline from "@mui/icons-material/CheckCircleOutline";
import CloudOffOutlined from "@mui/icons-material/CloudOffOutlined";
import HelpOutline from "@mui/icons-material/HelpOutline";
import Chip from "@mui/material/Chip";

const ICONS: Record<DefectType, typeof HelpOutline> = {
  to_investigate: HelpOutline,
  product_bug: BugReportOutlined,
  automation_bug: BuildOutlined,
  system_issue: CloudOffOutlined,
  no_defect: CheckCircleOutline,
};

const COLORS: Record<DefectType, "default" | "error" | "warning" | "info" | "success"> = {
  to_investigate: "default",
  product_bug: "error",
  automation_bug: "warning",
  system_issue: "info",
  no_defect: "success",
};

export const defectLabel = (type: DefectType): string =>
  DEFECT_TYPES.find((entry) => entry.value === type)?.label ?? type;

/** A defect type as a chip: its word and icon (never colour alone), "auto" when analysed. */
export function DefectChip({ type, auto = false }: { type: DefectType; auto?: boolean }) {
  const Icon = auto ? AutoFixHigh : ICONS[type];
  return (
    <Chip
      size="small"
      variant="outlined"
      color={COLORS[type]}
      icon={<Icon />}
      label={auto ? `${defectLabel(type)} (auto)` : defectLabel(type)}
      title={auto ? "Taken from an earlier decision on the same cause" : undefined}
    />
  );
}
