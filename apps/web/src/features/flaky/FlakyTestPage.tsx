import type { FlakyEvidence } from "@assay/core";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import Paper from "@mui/material/Paper";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import { Link as RouterLink } from "react-router";
import { OutcomeStrip } from "./OutcomeStrip";
import { UnstableButton } from "./UnstableButton";
import { contextLabel, percent, useFlakyTest } from "./use-flaky";

const WORDS = { p: "passed", f: "failed", r: "passed on retry" } as const;

function Figures({ context }: { context: FlakyEvidence }) {
  const items = [
    ["Score", context.score.toFixed(2)],
    ["Flip rate", percent(context.flipRate)],
    [
      "Failure rate",
      `${percent(context.failureRate)} (95%: ${percent(context.failureRateLow)}–${percent(context.failureRateHigh)})`,
    ],
    ["Passed on retry", String(context.retriesPassed)],
    ["Results", String(context.results)],
  ];
  return (
    <Box sx={{ display: "flex", gap: 3, flexWrap: "wrap" }}>
      {items.map(([label, value]) => (
        <Box key={label}>
          <Typography variant="caption" color="text.secondary">
            {label}
          </Typography>
          <Typography sx={{ fontVariantNumeric: "tabular-nums" }}>{value}</Typography>
        </Box>
      ))}
    </Box>
  );
}

/** Why a context is or is not flaky: its score, or too few results to say. */
function verdict(context: FlakyEvidence, minResults: number): string {
  if (context.flaky) return "Flaky";
  if (context.results < minResults) {
    return `Too few results to say: ${context.results} of ${minResults}`;
  }
  return "Below the threshold";
}

function ContextCard({ context, minResults }: { context: FlakyEvidence; minResults: number }) {
  const flips = context.runs.filter((run) => run.flipped);
  return (
    <Paper variant="outlined" sx={{ p: 2, display: "flex", flexDirection: "column", gap: 1.5 }}>
      <Box sx={{ display: "flex", alignItems: "center", gap: 1 }}>
        <Typography variant="h3" component="h3" sx={{ flex: 1 }}>
          {contextLabel(context.context)}
        </Typography>
        <Chip
          size="small"
          color={context.flaky ? "warning" : "success"}
          label={verdict(context, minResults)}
        />
      </Box>
      <Figures context={context} />
      <OutcomeStrip
        outcomes={context.outcomes}
        titles={context.runs.map((run) => `${run.runKey} (${run.at.slice(0, 16)}Z)`)}
      />
      <Box>
        <Typography variant="subtitle2">Where it flipped ({flips.length})</Typography>
        {flips.length === 0 && (
          <Typography variant="body2" color="text.secondary">
            No flip in its last {context.results} results.
          </Typography>
        )}
        {flips.map((run) => (
          <Typography key={run.runKey} variant="body2" sx={{ fontVariantNumeric: "tabular-nums" }}>
            <span title={run.at}>{run.at.slice(0, 16).replace("T", " ")}</span> · {run.runKey} ·{" "}
            {WORDS[run.outcome]}
          </Typography>
        ))}
      </Box>
      <Box>
        <Typography variant="subtitle2">Causes of its failures</Typography>
        {context.groups.length === 0 && (
          <Typography variant="body2" color="text.secondary">
            No failure group: it did not fail in this window, or triage has not read these runs.
          </Typography>
        )}
        {context.groups.map((group) => (
          <Typography key={group.id} variant="body2">
            <RouterLink to={`/failures/${group.id}`} style={{ color: "inherit" }}>
              {group.message || "(no message)"}
            </RouterLink>{" "}
            · {group.failures} failure{group.failures === 1 ? "" : "s"}
          </Typography>
        ))}
      </Box>
    </Paper>
  );
}

/** One test's flaky score in each job context, with the evidence behind it. */
export function FlakyTestPage({ testId }: { testId: number }) {
  const detail = useFlakyTest(testId);
  if (detail.isPending) return <Skeleton variant="rectangular" height={240} />;
  if (detail.isError) {
    return (
      <Alert severity="error">
        Could not load TC{testId}: {detail.error.message}
      </Alert>
    );
  }
  const name = detail.data.contexts[0]?.name ?? "";
  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
      <Box sx={{ display: "flex", alignItems: "center", gap: 1.5, flexWrap: "wrap" }}>
        <RouterLink to="/flaky">All flaky tests</RouterLink>
        <Typography variant="h2" component="h2" sx={{ flex: 1 }}>
          TC{testId} {name}
        </Typography>
        <RouterLink to={`/history/${testId}`}>Test History</RouterLink>
        {name && <UnstableButton testId={testId} name={name} />}
      </Box>
      {detail.data.contexts.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 4, textAlign: "center" }}>
          <Typography color="text.secondary">
            TC{testId} has not failed or passed on a retry since flaky tests are counted: it is not
            flaky.
          </Typography>
        </Paper>
      ) : (
        detail.data.contexts.map((context) => (
          <ContextCard
            key={contextLabel(context.context)}
            context={context}
            minResults={detail.data.minResults}
          />
        ))
      )}
    </Box>
  );
}
