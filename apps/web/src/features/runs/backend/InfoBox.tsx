import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";

/** One box of the dialog's summary row: a label, its figure, and the box's own controls. */
export function InfoBox({
  label,
  value,
  color,
  children,
  grow = false,
}: {
  label: string;
  value?: ReactNode;
  /** A theme colour for the figure, e.g. "status.failed". */
  color?: string;
  children?: ReactNode;
  /** Take the row's remaining width (the Failed Summary). */
  grow?: boolean;
}) {
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-label={label}
      sx={{
        px: 2,
        py: 1.5,
        minWidth: 160,
        flex: grow ? "1 1 320px" : "0 0 auto",
        display: "flex",
        flexDirection: "column",
        gap: 0.5,
      }}
    >
      <Typography variant="overline" color="text.secondary" sx={{ lineHeight: 1.5 }}>
        {label}
      </Typography>
      {value !== undefined && (
        <Typography
          component="p"
          sx={{ fontSize: "1.5rem", fontWeight: 600, lineHeight: 1.2, color }}
        >
          {value}
        </Typography>
      )}
      {children}
    </Paper>
  );
}
