import Box from "@mui/material/Box";
import Link from "@mui/material/Link";
import Typography from "@mui/material/Typography";
import { Link as RouterLink } from "react-router";
import { DefectChip } from "./DefectChip";
import { daysAgo } from "./time-ago";
import { useRunCauses } from "./use-triage";

/**
 * A failed result's cause on its card: its defect type and its group ("same cause as 12 others
 * in this run; first seen 3 days ago in run X"). Nothing for a result triage has not grouped.
 */
export function ResultCause({ runKey, resultId }: { runKey: string; resultId: number }) {
  const causes = useRunCauses(runKey);
  const cause = causes.data?.get(resultId);
  if (!cause) return null;
  const { group } = cause;
  const others = group.count - 1;
  const first = group.isNew
    ? "first seen in this run"
    : `first seen ${daysAgo(group.firstSeen.at)}${group.firstSeen.runKey ? ` in run ${group.firstSeen.runKey}` : ""}`;
  return (
    <Box
      sx={{ display: "flex", alignItems: "center", gap: 1, flexWrap: "wrap", mt: 0.5 }}
      data-testid="result-cause"
    >
      <DefectChip type={cause.type} auto={cause.auto} />
      <Typography variant="caption" color="text.secondary">
        {others > 0
          ? `Same cause as ${others} other${others === 1 ? "" : "s"} in this run`
          : "Only failure of its cause in this run"}
        {"; "}
        {first}
        {group.isRegression && " (regression: back after a pause)"}
        {" · "}
        <Link component={RouterLink} to={`/failures/${group.id}`}>
          cause
        </Link>
      </Typography>
    </Box>
  );
}
