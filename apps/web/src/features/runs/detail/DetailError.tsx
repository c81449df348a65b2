import Alert from "@mui/material/Alert";
import type { SxProps, Theme } from "@mui/material/styles";
import Typography from "@mui/material/Typography";

/** Spec section 8: what a failed detail fetch says (the server's reason follows it). */
export const DETAIL_ERROR = "Error occurred fetching test details...";

/** A result's detail that could not be read: the spec's words, then the server's reason. */
export function DetailError({ error, sx }: { error: Error; sx?: SxProps<Theme> }) {
  return (
    <Alert severity="error" sx={sx}>
      {DETAIL_ERROR}
      <Typography variant="caption" component="div">
        {error.message}
      </Typography>
    </Alert>
  );
}
