import { DEFECT_TYPES, type DefectType, type RunFailureGroup } from "@assay/core";
import Box from "@mui/material/Box";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import { memo } from "react";
import { useRunFailureGroups } from "./use-triage";

const ALL = "all";
const number = new Intl.NumberFormat("en-US");

export interface CauseFilter {
  /** A failure group's id: only its failures. */
  group: number | null;
  /** Only failures of this defect type. */
  defect: DefectType | null;
}

/**
 * The Hide switches once a cause is chosen: a cause's results are failures, so the statuses a
 * failure shows as (failed; in the UI dialog unstable too) are shown again. Otherwise a cause of
 * an '@unstable' test's failures would open on an empty list, unstable being hidden by default.
 */
export function showingFailures<S extends string>(
  hidden: ReadonlySet<S>,
  failureStatuses: readonly S[],
  cause: CauseFilter,
): ReadonlySet<S> {
  if (cause.group === null && cause.defect === null) return hidden;
  if (!failureStatuses.some((status) => hidden.has(status))) return hidden;
  const next = new Set(hidden);
  for (const status of failureStatuses) next.delete(status);
  return next;
}

/**
 * Each group's option: its count and message. Causes of one message that differ by their type
 * or their own code's frame say so, or two options would read the same.
 */
export function groupLabels(groups: readonly RunFailureGroup[]): Map<number, string> {
  const text = (group: RunFailureGroup) => group.message || group.errorType;
  const seen = new Map<string, number>();
  for (const group of groups) seen.set(text(group), (seen.get(text(group)) ?? 0) + 1);
  const labels = new Map<number, string>();
  for (const group of groups) {
    const shared = (seen.get(text(group)) ?? 0) > 1;
    const which = [group.errorType, group.frame].filter(Boolean).join(" at ");
    labels.set(
      group.id,
      `${number.format(group.count)} × ${text(group)}${shared ? ` (${which})` : ""}`,
    );
  }
  return labels;
}

/**
 * The results dialogs' cause filters: a failure group of the run (most failures first, with its
 * count) and a defect type. The server filters (GET .../view?group=&defect=).
 */
export const CauseFilters = memo(function CauseFilters({
  runKey,
  value,
  onChange,
}: {
  runKey: string;
  value: CauseFilter;
  onChange: (value: CauseFilter) => void;
}) {
  const groups = useRunFailureGroups(runKey);
  const list = groups.data ?? [];
  const labels = groupLabels(list);
  // A group of a link that is not among the run's (yet) still shows as chosen.
  const known = value.group === null || list.some((group) => group.id === value.group);
  if (list.length === 0 && value.group === null && value.defect === null) return null;
  return (
    <Box sx={{ display: "flex", gap: 2, flexWrap: "wrap" }}>
      <TextField
        select
        size="small"
        label="Failure group"
        value={value.group === null ? ALL : String(value.group)}
        onChange={(event) =>
          onChange({
            ...value,
            group: event.target.value === ALL ? null : Number(event.target.value),
          })
        }
        sx={{ width: 300 }}
        slotProps={{ select: { MenuProps: { slotProps: { paper: { sx: { maxWidth: 640 } } } } } }}
      >
        <MenuItem value={ALL}>All causes</MenuItem>
        {!known && <MenuItem value={String(value.group)}>Group {value.group}</MenuItem>}
        {list.map((group) => (
          <MenuItem key={group.id} value={String(group.id)} sx={{ whiteSpace: "normal" }}>
            {labels.get(group.id)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label="Defect type"
        value={value.defect ?? ALL}
        onChange={(event) =>
          onChange({
            ...value,
            defect: event.target.value === ALL ? null : (event.target.value as DefectType),
          })
        }
        sx={{ width: 190 }}
      >
        <MenuItem value={ALL}>All types</MenuItem>
        {DEFECT_TYPES.map((type) => (
          <MenuItem key={type.value} value={type.value}>
            {type.label}
          </MenuItem>
        ))}
      </TextField>
    </Box>
  );
});
