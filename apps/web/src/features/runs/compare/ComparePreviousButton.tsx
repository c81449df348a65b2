import CompareArrows from "@mui/icons-material/CompareArrows";
import Button from "@mui/material/Button";
import Tooltip from "@mui/material/Tooltip";
import { Link as RouterLink } from "react-router";
import { diffHref } from "./compare-url";
import { usePreviousRun } from "./use-previous-run";

/**
 * "Compare with previous": one click from a run's dialog to the diff with the run before it in
 * its job (the same executor, branch, site or environment). Without one it says so, disabled.
 */
export function ComparePreviousButton({ runKey }: { runKey: string }) {
  const previous = usePreviousRun(runKey);
  const before = previous.data?.previous;
  if (!before) {
    const reason = previous.isPending
      ? "Looking for the previous run of this job…"
      : previous.isError
        ? "The previous run could not be read; try again later."
        : "No earlier run of this job (same executor, branch, site or environment) to compare with.";
    return (
      <Tooltip describeChild title={reason}>
        {/* A disabled button takes no pointer events: the span shows the reason on hover. */}
        <span>
          <Button size="small" startIcon={<CompareArrows />} disabled>
            Compare with previous
          </Button>
        </span>
      </Tooltip>
    );
  }
  return (
    <Tooltip
      describeChild
      title={`Compare with the previous run of the same job: ${before.name} (${before.key})`}
    >
      <Button
        size="small"
        startIcon={<CompareArrows />}
        component={RouterLink}
        to={diffHref(before.key, runKey)}
      >
        Compare with previous
      </Button>
    </Tooltip>
  );
}
