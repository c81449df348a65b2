import Alert from "@mui/material/Alert";
import Typography from "@mui/material/Typography";
import { useDhChanges } from "./use-dh";

const describe = (side: { status: string; difference: number | null } | null) =>
  side ? `${side.status}${side.difference ? ` (${side.difference})` : ""}` : "absent";

/** What changed since the environment's previous finished run. */
export function DhChangesPanel({ runId }: { runId: number }) {
  const changes = useDhChanges(runId, true);
  if (!changes.data) return null;
  if (changes.data.previousRunId === null)
    return (
      <Alert severity="info" sx={{ mb: 2 }}>
        This is the environment&apos;s first finished run: nothing to compare with.
      </Alert>
    );
  return (
    <Alert severity={changes.data.changes.length ? "warning" : "success"} sx={{ mb: 2 }}>
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        Since run {changes.data.previousRunId}:{" "}
        {changes.data.changes.length
          ? `${changes.data.changes.length} entities changed`
          : "no entity changed"}
      </Typography>
      {changes.data.changes.map((c) => (
        <Typography key={c.entity} variant="body2">
          {c.entity}: {describe(c.before)} → {describe(c.after)}
        </Typography>
      ))}
    </Alert>
  );
}
