import type { IndexedStep, Step } from "@assay/core";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";

const OUTCOME = {
  passed: { word: "passed", mark: "✓", color: "status.passed" },
  failed: { word: "failed", mark: "✗", color: "status.failed" },
  notRun: { word: "not run", mark: "–", color: "status.skipped" },
} as const;

function outcome(step: Step) {
  if (step.passed === true) return OUTCOME.passed;
  if (step.passed === false) return OUTCOME.failed;
  return OUTCOME.notRun;
}

/** Steps with their number in the scenario, outcome (mark and word) and code location. */
export function StepList({ steps }: { steps: readonly IndexedStep<Step>[] }) {
  return (
    <Box component="ol" data-print-steps sx={{ m: 0, p: 0, listStyle: "none" }}>
      {steps.map(({ index, step }) => {
        const look = outcome(step);
        return (
          <Box
            component="li"
            key={index}
            sx={{ display: "flex", gap: 1, py: 0.25, alignItems: "baseline" }}
          >
            <Typography
              component="span"
              color="text.secondary"
              sx={{ minWidth: 28, textAlign: "right", fontVariantNumeric: "tabular-nums" }}
            >
              {index + 1}.
            </Typography>
            <Typography component="span" sx={{ color: look.color, minWidth: 64, fontWeight: 600 }}>
              {look.mark} {look.word}
            </Typography>
            <Typography component="span" sx={{ flex: 1, overflowWrap: "anywhere" }}>
              {step.action}
            </Typography>
            {step.codeLocation && (
              <Typography
                component="span"
                variant="caption"
                color="text.secondary"
                sx={{ fontFamily: "monospace" }}
              >
                {step.codeLocation}
              </Typography>
            )}
          </Box>
        );
      })}
    </Box>
  );
}
