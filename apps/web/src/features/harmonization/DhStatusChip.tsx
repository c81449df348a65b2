import Chip from "@mui/material/Chip";

/** Counts with thousands separators; an empty cell while not counted yet. */
export function formatCount(value: number | null | undefined): string {
  return value === null || value === undefined ? "" : value.toLocaleString("en-US");
}

type ChipColor = "default" | "success" | "error" | "warning" | "info";

function colorOf(status: string): ChipColor {
  if (status === "Success" || status === "Done") return "success";
  if (status === "Failed") return "error";
  if (status === "Unequal Counts" || status === "Count Error") return "warning";
  if (status.startsWith("Pending")) return "default";
  return "info";
}

/** A row's status of spec section 4, coloured by outcome. */
export function DhStatusChip({ status }: { status: string }) {
  return <Chip size="small" label={status} color={colorOf(status)} variant="outlined" />;
}
