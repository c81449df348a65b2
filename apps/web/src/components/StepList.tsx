import type { Step } from "@assay/core";
import CancelOutlined from "@mui/icons-material/CancelOutlined";
import CheckCircleOutline from "@mui/icons-material/CheckCircleOutline";
import RadioButtonUnchecked from "@mui/icons-material/RadioButtonUnchecked";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";

/** A step's outcome, in the words both the screen and the print view use. */
const OUTCOME = {
  passed: { word: "passed", mark: "✓", color: "status.passed", Icon: CheckCircleOutline },
  failed: { word: "failed", mark: "✗", color: "status.failed", Icon: CancelOutlined },
  notRun: { word: "not run", mark: "–", color: "status.skipped", Icon: RadioButtonUnchecked },
} as const;

function outcomeOf(step: Step) {
  if (step.passed === true) return OUTCOME.passed;
  if (step.passed === false) return OUTCOME.failed;
  return OUTCOME.notRun;
}

const capitalised = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

function StepIcon({ step }: { step: Step }) {
  const { Icon, color, word } = outcomeOf(step);
  return <Icon sx={{ fontSize: 16, color }} aria-label={capitalised(word)} />;
}

/** One step: number, passed icon, action, and where it is in the code. */
function StepRow({ step, number }: { step: Step; number: number }) {
  return (
    <Box
      component="li"
      sx={{
        display: "grid",
        gridTemplateColumns: "28px 20px 1fr auto",
        alignItems: "baseline",
        columnGap: 1,
        py: 0.25,
        borderBottom: 1,
        borderColor: "divider",
      }}
    >
      <Typography variant="caption" color="text.secondary" sx={{ textAlign: "right" }}>
        {number}
      </Typography>
      <Box sx={{ alignSelf: "center", lineHeight: 0 }}>
        <StepIcon step={step} />
      </Box>
      <Typography variant="body2" sx={{ overflowWrap: "anywhere" }}>
        {step.action}
      </Typography>
      <Typography
        variant="caption"
        color="text.secondary"
        title={step.codeLocation ?? undefined}
        sx={{
          fontFamily: "monospace",
          maxWidth: 260,
          // Long paths lose their start, never the file name and line at their end.
          direction: "rtl",
          overflow: "hidden",
          textOverflow: "ellipsis",
          whiteSpace: "nowrap",
        }}
      >
        <bdi dir="ltr">{step.codeLocation ?? ""}</bdi>
      </Typography>
    </Box>
  );
}

/** One step on paper: number, outcome as a mark and a word (colour may not print), action, code. */
function PrintedStepRow({ step, number }: { step: Step; number: number }) {
  const look = outcomeOf(step);
  return (
    <Box component="li" sx={{ display: "flex", gap: 1, py: 0.25, alignItems: "baseline" }}>
      <Typography
        component="span"
        color="text.secondary"
        sx={{ minWidth: 28, textAlign: "right", fontVariantNumeric: "tabular-nums" }}
      >
        {number}.
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
}

/**
 * Steps in order, numbered from `start` (1 unless they continue an earlier list): on screen with
 * an icon a step, or for the print view (`printed`) with the outcome as a mark and a word.
 */
export function StepList({
  steps,
  label,
  start = 1,
  printed = false,
}: {
  steps: readonly Step[];
  label?: string;
  start?: number;
  printed?: boolean;
}) {
  if (steps.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        No steps recorded.
      </Typography>
    );
  }
  const Row = printed ? PrintedStepRow : StepRow;
  return (
    <Box
      component="ol"
      aria-label={label}
      data-print-steps={printed || undefined}
      sx={{ m: 0, p: 0, listStyle: "none" }}
    >
      {steps.map((step, index) => (
        <Row key={index} step={step} number={start + index} />
      ))}
    </Box>
  );
}
