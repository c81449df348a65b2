import Chip from "@mui/material/Chip";
import { Link as RouterLink } from "react-router";
import { contextLabel, useFlakyTest } from "./use-flaky";

/**
 * A test's flaky score where its details are shown (Test History): its highest score over its
 * job contexts, linking to the evidence.
 */
export function FlakyScore({ testId }: { testId: number }) {
  const detail = useFlakyTest(testId);
  if (!detail.data) return null;
  const top = detail.data.contexts[0];
  if (!top || top.score === 0) {
    return (
      <Chip size="small" variant="outlined" color="success" label="Not flaky: no flip counted" />
    );
  }
  return (
    <Chip
      size="small"
      clickable
      component={RouterLink}
      to={`/flaky/${testId}`}
      color={top.flaky ? "warning" : "default"}
      variant={top.flaky ? "filled" : "outlined"}
      label={`${top.flaky ? "Flaky" : "Flaky score"} ${top.score.toFixed(2)} · ${contextLabel(top.context)}`}
      title="Exponentially weighted flip rate over its last results: open the evidence"
    />
  );
}
