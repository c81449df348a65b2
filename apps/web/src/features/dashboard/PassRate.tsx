import { latestPassRate, type DailyPoint } from "@assay/core";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { monthDay } from "./run-links";

/** The latest day's pass rate and its change against the day with runs before it. */
export function PassRate({ days }: { days: readonly DailyPoint[] }) {
  const latest = latestPassRate(days);
  if (!latest) return null;
  const { change } = latest;
  const color =
    change === null || change === 0 ? "text.secondary" : change > 0 ? "success.main" : "error.main";
  const sign = change !== null && change > 0 ? "+" : "";
  return (
    <Box sx={{ textAlign: "right", minWidth: 170 }} aria-label="Latest pass rate">
      <Typography variant="caption" color="text.secondary">
        Pass rate on {monthDay(latest.date)}
      </Typography>
      <Typography variant="h5" component="p" sx={{ fontWeight: 600, lineHeight: 1.2 }}>
        {latest.rate.toFixed(1)}%
      </Typography>
      <Typography variant="body2" sx={{ color }}>
        {change === null
          ? "no earlier day to compare"
          : `${sign}${change.toFixed(1)} pts vs day before`}
      </Typography>
    </Box>
  );
}
