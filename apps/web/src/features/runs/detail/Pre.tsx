import Box from "@mui/material/Box";

/** Preformatted text from a report (logs, a script, an attachment), scrolled when long. */
export function Pre({ children, label }: { children: string; label?: string }) {
  return (
    <Box
      component="pre"
      aria-label={label}
      sx={{
        m: 0,
        p: 1,
        maxHeight: 360,
        overflow: "auto",
        fontSize: 12,
        bgcolor: "background.default",
        border: 1,
        borderColor: "divider",
        borderRadius: 1,
        whiteSpace: "pre-wrap",
        overflowWrap: "anywhere",
      }}
    >
      {children}
    </Box>
  );
}
