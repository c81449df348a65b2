import Box from "@mui/material/Box";
import CircularProgress from "@mui/material/CircularProgress";
import Typography from "@mui/material/Typography";

/** How many results are listed, and whether the recent history is still on its way. */
export function ShownCount({
  historyState,
  shown,
  total,
}: {
  historyState: "loading" | "error" | "ready";
  shown: number;
  total: number;
}) {
  return (
    <Box sx={{ ml: "auto", display: "flex", alignItems: "center", gap: 1, minHeight: 40 }}>
      {historyState === "loading" && (
        <>
          <CircularProgress size={14} aria-hidden />
          <Typography variant="body2" color="text.secondary">
            Loading recent history…
          </Typography>
        </>
      )}
      {historyState === "error" && (
        <Typography variant="body2" color="error">
          Recent history could not be loaded.
        </Typography>
      )}
      <Typography variant="body2" sx={{ fontVariantNumeric: "tabular-nums", whiteSpace: "nowrap" }}>
        Showing {shown.toLocaleString("en-US")} of {total.toLocaleString("en-US")} results
      </Typography>
    </Box>
  );
}
