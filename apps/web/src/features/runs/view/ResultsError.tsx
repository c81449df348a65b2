import Alert from "@mui/material/Alert";
import Typography from "@mui/material/Typography";

/** Spec section 8: what a failed results fetch says. */
const RESULTS_ERROR = "Error occurred fetching results";

/**
 * A results fetch that failed: the spec's words (section 8), and under them the server's reason
 * (e.g. "No test run with key …", so a mistyped or stale link says so).
 */
export function ResultsError({ error }: { error: Error }) {
  return (
    <Alert severity="error">
      {RESULTS_ERROR}
      <Typography variant="caption" component="div">
        {error.message}
      </Typography>
    </Alert>
  );
}
