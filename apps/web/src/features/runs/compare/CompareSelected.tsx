import CompareArrows from "@mui/icons-material/CompareArrows";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { Link as RouterLink } from "react-router";
import { diffHref } from "./compare-url";

export interface PickedRun {
  test_run_key: string;
  created_at: string;
}

/**
 * Two runs picked in a run list (the check boxes of its rows), kept across its pages: picking a
 * third lets go of the first picked.
 */
export function useRunPicks() {
  const [picked, setPicked] = useState<readonly PickedRun[]>([]);
  const toggle = (run: PickedRun) =>
    setPicked((now) =>
      now.some((p) => p.test_run_key === run.test_run_key)
        ? now.filter((p) => p.test_run_key !== run.test_run_key)
        : [...now, run].slice(-2),
    );
  return {
    picked,
    isPicked: (key: string) => picked.some((p) => p.test_run_key === key),
    toggle,
    clear: () => setPicked([]),
  };
}

/** The bar above a run list: how many runs are picked, and Compare once there are two. */
export function CompareSelected({ picks }: { picks: ReturnType<typeof useRunPicks> }) {
  const [first, second] = picks.picked;
  // The earlier run is the base: the diff reads from it to the later one.
  const [a, b] =
    first && second
      ? first.created_at <= second.created_at
        ? [first, second]
        : [second, first]
      : [];
  return (
    <Box sx={{ display: "flex", alignItems: "center", gap: 1, minHeight: 36, px: 2 }}>
      <Typography variant="body2" color="text.secondary" aria-live="polite">
        {picks.picked.length === 0
          ? "Tick two runs to compare them."
          : picks.picked.length === 1
            ? `${picks.picked[0]!.test_run_key} picked: tick one more run to compare.`
            : `${a!.test_run_key} → ${b!.test_run_key}`}
      </Typography>
      {a && b && (
        <Button
          size="small"
          variant="contained"
          startIcon={<CompareArrows />}
          component={RouterLink}
          to={diffHref(a.test_run_key, b.test_run_key)}
        >
          Compare
        </Button>
      )}
      {picks.picked.length > 0 && (
        <Button size="small" onClick={picks.clear}>
          Clear
        </Button>
      )}
    </Box>
  );
}
