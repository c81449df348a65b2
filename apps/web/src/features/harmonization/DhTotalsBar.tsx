import type { DhTotals } from "@assay/core";
import Chip from "@mui/material/Chip";
import Stack from "@mui/material/Stack";

/** The totals at the top of results: Pending, Loading, Success, Failed, Unequal Counts, Total. */
export function DhTotalsBar({ totals }: { totals: DhTotals }) {
  const items: [string, number, "default" | "info" | "success" | "error" | "warning"][] = [
    ["Pending", totals.pending, "default"],
    ["Loading", totals.loading, "info"],
    ["Success", totals.success, "success"],
    ["Failed", totals.failed, "error"],
    ["Unequal Counts", totals.unequal, "warning"],
    ["Total", totals.total, "default"],
  ];
  return (
    <Stack
      direction="row"
      spacing={1}
      useFlexGap
      sx={{ flexWrap: "wrap", mb: 2 }}
      aria-label="Totals"
    >
      {items.map(([label, value, color]) => (
        <Chip key={label} label={`${label}: ${value}`} color={color} size="small" />
      ))}
    </Stack>
  );
}
