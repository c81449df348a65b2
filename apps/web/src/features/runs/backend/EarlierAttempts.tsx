import { formatDuration, formatUtc, type BackendResultDetail } from "@assay/core";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { StatusLabel } from "../../../components/StatusLabel";
import { attemptLabel } from "../detail/AttemptList";

/**
 * The earlier attempts of an expanded backend result (a rerun adds attempts): the last attempt
 * decides the row, the earlier ones stay here with their status, time and error. They come with
 * the result's detail, so nothing more is fetched.
 */
export function EarlierAttempts({ result }: { result: BackendResultDetail }) {
  const earlier = result.attempts
    .filter((other) => other.attempt < result.attempt)
    .sort((a, b) => a.attempt - b.attempt);
  if (earlier.length === 0) return null;
  return (
    <Box component="section" aria-label="Earlier attempts">
      <Typography variant="h3" sx={{ mb: 0.5 }}>
        Earlier attempts
      </Typography>
      <Box component="ol" sx={{ m: 0, pl: 0, listStyle: "none", display: "grid", gap: 0.5 }}>
        {earlier.map((attempt) => (
          <Box
            component="li"
            key={attempt.test_run_test_id}
            sx={{ display: "flex", flexWrap: "wrap", columnGap: 1.5, alignItems: "center" }}
          >
            <strong>{attemptLabel(attempt.attempt)}</strong>
            <StatusLabel status={attempt.derived_status} />
            <span>{formatUtc(attempt.start_time)}</span>
            <span>{formatDuration(attempt.duration_ms)}</span>
            {attempt.error_message && (
              <Box component="span" sx={{ overflowWrap: "anywhere" }}>
                {[attempt.error_message.name, attempt.error_message.message]
                  .filter(Boolean)
                  .join(": ")}
              </Box>
            )}
          </Box>
        ))}
      </Box>
    </Box>
  );
}
