import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Link from "@mui/material/Link";
import Paper from "@mui/material/Paper";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import { Link as RouterLink } from "react-router";
import { DefectChip } from "./DefectChip";
import { LazyTrend } from "./LazyTrend";
import { daysAgo } from "./time-ago";
import { DefectForm } from "./DefectForm";
import { useFailureGroup } from "./use-triage";

/** One failure group: message, stack, first occurrence, trend, tests and runs; type for all. */
export function FailureGroupPage({ id }: { id: number }) {
  const group = useFailureGroup(id);
  if (group.isPending)
    return <Skeleton variant="rounded" height={320} aria-label="Loading the failure group" />;
  if (group.isError) {
    return (
      <Alert severity="error">
        Could not load failure group {id}: {group.error.message}
      </Alert>
    );
  }
  const g = group.data;
  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
      <Link component={RouterLink} to="/failures">
        ← All failure groups
      </Link>
      <Paper variant="outlined" sx={{ p: 2, display: "flex", flexDirection: "column", gap: 1 }}>
        <Typography variant="overline" color="text.secondary">
          {g.errorType} · fingerprint {g.fingerprint}
        </Typography>
        <Typography variant="h6" component="h2" sx={{ wordBreak: "break-word" }}>
          {g.message || "(no message)"}
        </Typography>
        {g.frame && (
          <Typography variant="body2" color="text.secondary">
            In {g.frame}
          </Typography>
        )}
        <Typography variant="body2">
          {g.count} occurrences · first seen {daysAgo(g.firstSeen.at)}
          {g.firstSeen.runKey && (
            <>
              {" in run "}
              <Link
                component={RouterLink}
                to={`/test_runs/${encodeURIComponent(g.firstSeen.runKey)}`}
              >
                {g.firstSeen.runKey}
              </Link>
            </>
          )}
          {" · last seen "}
          {daysAgo(g.lastSeenAt)}
        </Typography>
        <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap" }}>
          {g.defects.map((d) => (
            <Box key={d.type} sx={{ display: "flex", alignItems: "center", gap: 0.5 }}>
              <DefectChip type={d.type} />
              <Typography variant="caption">×{d.count}</Typography>
            </Box>
          ))}
        </Box>
        <Box aria-label="Occurrences per day, last 30 days" sx={{ maxWidth: 360 }}>
          <LazyTrend data={g.trend.map((p) => p.count)} height={48} />
        </Box>
        <DefectForm path={`/v1/failure-groups/${id}/defect`} submitLabel="Set for all (90 days)" />
      </Paper>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Typography variant="subtitle2">First occurrence as reported</Typography>
        <Box
          component="pre"
          sx={{
            whiteSpace: "pre-wrap",
            wordBreak: "break-word",
            fontSize: 12,
            maxHeight: 240,
            overflow: "auto",
            m: 0,
          }}
        >
          {[g.sampleMessage, g.sampleStack].filter(Boolean).join("\n\n") || "(no text)"}
        </Box>
      </Paper>
      <Box sx={{ display: "grid", gridTemplateColumns: { md: "1fr 1fr" }, gap: 2 }}>
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Typography variant="subtitle2">Tests ({g.tests.length})</Typography>
          {g.tests.map((t) => (
            <Typography key={t.testId} variant="body2">
              <Link component={RouterLink} to={`/history/${t.testId}`}>
                TC{t.testId}
              </Link>{" "}
              — {t.count}× , last {daysAgo(t.lastSeenAt)}
            </Typography>
          ))}
        </Paper>
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Typography variant="subtitle2">Runs ({g.runs.length})</Typography>
          {g.runs.map((r) => (
            <Typography key={r.runKey} variant="body2" title={r.at}>
              <Link
                component={RouterLink}
                to={
                  r.family === "backend"
                    ? `/test_runs/${encodeURIComponent(r.runKey)}?be=1`
                    : `/test_runs/${encodeURIComponent(r.runKey)}`
                }
              >
                {r.runKey}
              </Link>{" "}
              — {r.count} failure{r.count === 1 ? "" : "s"}, {daysAgo(r.at)}
            </Typography>
          ))}
        </Paper>
      </Box>
    </Box>
  );
}
