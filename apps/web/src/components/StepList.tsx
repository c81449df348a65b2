import type { Step } from "@assay/core";
import CancelOutlined from "@mui/icons-material/CancelOutlined";
import CheckCircleOutline from "@mui/icons-material/CheckCircleOutline";
import RadioButtonUnchecked from "@mui/icons-material/RadioButtonUnchecked";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";

function StepIcon({ passed }: { passed: boolean | null }) {
  if (passed === true) {
    return <CheckCircleOutline sx={{ fontSize: 16, color: "status.passed" }} aria-label="Passed" />;
  }
  if (passed === false) {
    return <CancelOutlined sx={{ fontSize: 16, color: "status.failed" }} aria-label="Failed" />;
  }
  return (
    <RadioButtonUnchecked sx={{ fontSize: 16, color: "status.skipped" }} aria-label="Not run" />
  );
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
        <StepIcon passed={step.passed} />
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

/** Steps in order, numbered from `start` (1 unless they continue an earlier list). */
export function StepList({
  steps,
  label,
  start = 1,
}: {
  steps: readonly Step[];
  label: string;
  start?: number;
}) {
  if (steps.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        No steps recorded.
      </Typography>
    );
  }
  return (
    <Box component="ol" aria-label={label} sx={{ m: 0, p: 0, listStyle: "none" }}>
      {steps.map((step, index) => (
        <StepRow key={index} step={step} number={start + index} />
      ))}
    </Box>
  );
}
