import { consoleLogLines, truncateLine } from "@assay/core";
import Box from "@mui/material/Box";
import Link from "@mui/material/Link";
import Typography from "@mui/material/Typography";
import { useState } from "react";

/**
 * A result's console output, one line per row. Lines longer than the limit of spec section 9 are
 * cut, each with its own control to show the whole line (and to cut it again).
 */
export function ConsoleLog({ log }: { log: string | null }) {
  const lines = consoleLogLines(log);
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());

  if (lines.length === 0) {
    return <Typography color="text.secondary">No console output.</Typography>;
  }

  const toggle = (index: number) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(index)) next.add(index);
      return next;
    });

  return (
    <Box
      role="list"
      aria-label="Console log"
      sx={{
        fontFamily: "monospace",
        fontSize: 12,
        bgcolor: "grey.50",
        border: 1,
        borderColor: "divider",
        borderRadius: 1,
        p: 1,
        maxHeight: 320,
        overflow: "auto",
      }}
    >
      {lines.map((line, index) => {
        const cut = truncateLine(line);
        const open = expanded.has(index);
        return (
          <Box
            // Lines have no identity but their position, and the log never reorders.
            key={index}
            role="listitem"
            sx={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere", minHeight: "1.4em" }}
          >
            {open || !cut.truncated ? line : cut.text}
            {cut.truncated && (
              <Link
                component="button"
                type="button"
                onClick={() => toggle(index)}
                aria-expanded={open}
                aria-label={open ? `Shorten line ${index + 1}` : `Show all of line ${index + 1}`}
                sx={{
                  ml: 0.5,
                  fontFamily: "inherit",
                  fontSize: "inherit",
                  verticalAlign: "baseline",
                }}
              >
                {open ? "less" : "…more"}
              </Link>
            )}
          </Box>
        );
      })}
    </Box>
  );
}
