import { UNSTABLE_TAG, type FlakySummary } from "@assay/core";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Paper from "@mui/material/Paper";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import { useQueryClient } from "@tanstack/react-query";
import { Link as RouterLink } from "react-router";
import { useRemoveTaggedTest } from "../tags/use-tags";
import { LazyTrend } from "../triage/LazyTrend";
import { useUnstableLinks } from "./UnstableButton";
import { flakyKeys, useFlakySummary } from "./use-flaky";

const DAYS = 30;

/** Flaky tests per UTC day over the last 30 days, all families summed; 0 where none counted. */
export function dailyCounts(trend: FlakySummary["trend"], now = new Date()): number[] {
  const byDay = new Map<string, number>();
  for (const point of trend) byDay.set(point.day, (byDay.get(point.day) ?? 0) + point.count);
  const out: number[] = [];
  let last = 0;
  for (let back = DAYS - 1; back >= 0; back--) {
    const day = new Date(now.getTime() - back * 86_400_000).toISOString().slice(0, 10);
    // A day without a run keeps the count of the day before: nothing changed it.
    last = byDay.get(day) ?? last;
    out.push(last);
  }
  return out;
}

function StableAgain({ summary }: { summary: FlakySummary }) {
  const links = useUnstableLinks();
  const remove = useRemoveTaggedTest();
  const queryClient = useQueryClient();
  const tests = summary.stableUnstable.filter((test) => links.has(test.testId));
  if (tests.length === 0) return null;
  return (
    <Alert severity="info" sx={{ "& .MuiAlert-message": { width: "100%" } }}>
      <Typography variant="body2" sx={{ mb: 0.5 }}>
        Stable again: these tests are tagged {UNSTABLE_TAG} and passed their last {summary.window}{" "}
        results everywhere they ran. Remove the tag so that their failures count again.
      </Typography>
      {tests.map((test) => (
        <Box key={test.testId} sx={{ display: "flex", alignItems: "center", gap: 1 }}>
          <RouterLink to={`/flaky/${test.testId}`} style={{ color: "inherit" }}>
            TC{test.testId}
          </RouterLink>
          <Typography variant="body2" noWrap sx={{ flex: 1 }}>
            {test.name}
          </Typography>
          <Button
            size="small"
            disabled={remove.isPending}
            onClick={() =>
              remove.mutate(
                {
                  taggedTestId: links.get(test.testId)!,
                  testId: test.testId,
                  tagName: UNSTABLE_TAG,
                },
                {
                  onSuccess: () =>
                    void queryClient.invalidateQueries({ queryKey: flakyKeys.summary }),
                },
              )
            }
          >
            Remove {UNSTABLE_TAG}
          </Button>
        </Box>
      ))}
    </Alert>
  );
}

/** The screen's head: the trend of flaky tests and the '@unstable' tests stable again. */
export function FlakyOverview() {
  const summary = useFlakySummary();
  if (summary.isPending) return <Skeleton variant="rectangular" height={72} />;
  if (summary.isError) {
    return <Alert severity="error">Could not load the trend: {summary.error.message}</Alert>;
  }
  const counts = dailyCounts(summary.data.trend);
  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 1.5 }}>
      <Paper variant="outlined" sx={{ p: 1.5, display: "flex", gap: 3, alignItems: "center" }}>
        <Box sx={{ minWidth: 220 }}>
          <Typography variant="h2" component="p" sx={{ fontVariantNumeric: "tabular-nums" }}>
            {counts.at(-1) ?? 0}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            flaky (test, job) today: score ≥ {summary.data.threshold} over the last{" "}
            {summary.data.window} results, at least {summary.data.minResults}
          </Typography>
        </Box>
        <Box sx={{ flex: 1 }} aria-label="Flaky tests per day, last 30 days">
          <LazyTrend data={counts} height={56} />
        </Box>
      </Paper>
      <StableAgain summary={summary.data} />
    </Box>
  );
}
