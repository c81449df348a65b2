import { formatUtc } from "@assay/core";
import Box from "@mui/material/Box";
import Tooltip from "@mui/material/Tooltip";

/** Cells shared by the run and build tables. */

/** An empty value in a table cell. */
export const dash = (value: string | number | null | undefined) =>
  value === null || value === undefined || value === "" ? "–" : value;

/** One line cut to `width` with an ellipsis. */
export const clip = (width: number) =>
  ({
    display: "block",
    maxWidth: width,
    overflow: "hidden",
    textOverflow: "ellipsis",
    whiteSpace: "nowrap",
  }) as const;

/** Up to `lines` lines broken between words, the last cut with an ellipsis. */
const clamp = (width: number, lines: number) =>
  ({
    display: "-webkit-box",
    maxWidth: width,
    overflow: "hidden",
    WebkitBoxOrient: "vertical",
    WebkitLineClamp: lines,
  }) as const;

/**
 * A long value (a site, an email, a run key) cut to `width` on one line, whole on hover: a
 * table's rows stay one line tall instead of breaking a host name in the middle of a word.
 * `lines` lets words (an executor's name) take that many lines, in a table whose rows are that
 * tall anyway; a value without a space (a host, an email) stays one line.
 */
export function Clipped({
  value,
  width,
  lines = 1,
}: {
  value: string | number | null | undefined;
  width: number;
  lines?: number;
}) {
  const shown = dash(value);
  const words = lines > 1 && typeof shown === "string" && /\s/.test(shown.trim());
  return (
    <Tooltip title={typeof shown === "string" && shown.length > 12 ? shown : ""}>
      <Box component="span" sx={words ? clamp(width, lines) : clip(width)}>
        {shown}
      </Box>
    </Tooltip>
  );
}

/** Month-day and time in UTC (the column's header says so), the full timestamp on hover. */
export function ShortUtc({ iso }: { iso: string | null }) {
  if (!iso) return "–";
  const full = formatUtc(iso);
  return (
    <Tooltip title={full}>
      <Box component="span" sx={{ whiteSpace: "nowrap" }}>
        {full.slice(5, 19)}
      </Box>
    </Tooltip>
  );
}
