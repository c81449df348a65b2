import { formatUtc, type BuildEvent } from "@assay/core";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";

/** What each kind of event is called in the list (words, never a colour alone). */
const KIND_LABELS: Record<BuildEvent["kind"], string> = {
  queued: "Queued",
  waiting: "Waiting",
  started: "Started",
  taken_over: "Taken over",
  stop_requested: "Stop asked",
  finished: "Finished",
};

/** A build's history (UTC), oldest first: who queued, started, took over, stopped it. */
export function BuildHistory({ events }: { events: readonly BuildEvent[] }) {
  if (events.length === 0) return null;
  return (
    <Box component="section" aria-labelledby="build-history-title" sx={{ mb: 1 }}>
      <Typography id="build-history-title" variant="subtitle2" component="h3">
        History
      </Typography>
      <Box component="ol" aria-label="Build history" sx={{ m: 0, pl: 0, listStyle: "none" }}>
        {events.map((event, index) => (
          <Box
            component="li"
            key={`${event.at}-${index}`}
            sx={{ display: "flex", gap: 1.5, py: 0.25, typography: "body2" }}
          >
            <Typography
              component="span"
              variant="body2"
              color="text.secondary"
              sx={{ fontFamily: "monospace", flexShrink: 0 }}
            >
              {formatUtc(event.at).slice(5, 19)}
            </Typography>
            <Typography
              component="span"
              variant="body2"
              sx={{ fontWeight: 600, flexShrink: 0, minWidth: 88 }}
            >
              {KIND_LABELS[event.kind]}
            </Typography>
            <Typography component="span" variant="body2">
              {event.message}
            </Typography>
          </Box>
        ))}
      </Box>
    </Box>
  );
}
