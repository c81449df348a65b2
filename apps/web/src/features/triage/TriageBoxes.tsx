import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";
import { useRunFailureGroups } from "./use-triage";

const number = new Intl.NumberFormat("en-US");

function Box1({ label, value, note }: { label: string; value: ReactNode; note: string }) {
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-label={label}
      sx={{ px: 1.5, py: 1, minWidth: 150, display: "flex", flexDirection: "column", gap: 0.25 }}
    >
      <Typography variant="overline" color="text.secondary" noWrap sx={{ lineHeight: 1.6 }}>
        {label}
      </Typography>
      <Typography component="p" sx={{ fontSize: "1.375rem", fontWeight: 600, lineHeight: 1.2 }}>
        {value}
      </Typography>
      <Typography variant="caption" color="text.secondary" noWrap>
        {note}
      </Typography>
    </Paper>
  );
}

/**
 * The results dialogs' triage boxes: failures of causes first seen in this run (New), of causes
 * seen before (Known, with regressions), and those nobody has classified (To investigate).
 */
export function TriageBoxes({ runKey }: { runKey: string }) {
  const groups = useRunFailureGroups(runKey);
  if (groups.isPending) {
    return <Skeleton variant="rounded" height={72} aria-label="Loading the failures' causes" />;
  }
  if (groups.isError) {
    return (
      <Typography color="error" variant="body2">
        Could not load the failures' causes: {groups.error.message}
      </Typography>
    );
  }
  const list = groups.data;
  if (list.length === 0) return null;
  const fresh = list.filter((group) => group.isNew);
  const known = list.filter((group) => !group.isNew);
  const regressions = known.filter((group) => group.isRegression).length;
  const sum = (of: typeof list) => of.reduce((total, group) => total + group.count, 0);
  const toInvestigate = list.reduce((total, group) => total + group.toInvestigate, 0);
  return (
    <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap" }} aria-label="Triage">
      <Box1
        label="New"
        value={number.format(sum(fresh))}
        note={`${fresh.length} cause${fresh.length === 1 ? "" : "s"} first seen in this run`}
      />
      <Box1
        label="Known"
        value={number.format(sum(known))}
        note={`${known.length} cause${known.length === 1 ? "" : "s"} seen before${regressions ? `, ${regressions} regression${regressions === 1 ? "" : "s"}` : ""}`}
      />
      <Box1
        label="To investigate"
        value={number.format(toInvestigate)}
        note={`of ${number.format(sum(list))} failures in ${list.length} causes`}
      />
    </Box>
  );
}
