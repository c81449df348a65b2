import Box from "@mui/material/Box";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import { useJiraReleaseVersions, useSpiraReleases } from "../../api/use-integrations";

/**
 * The OQ run's Spira and Jira release selectors (spec: Spira releases ReleaseId + FullName, Jira
 * releases by name), from GET /v1/spira/releases and /v1/jira/release-versions. While a list
 * loads, or when its tracker is not configured or down, the selector is disabled and says why;
 * the run may then go without that release.
 */
export function ReleaseSelectors({
  releaseId,
  jiraRelease,
  onChange,
}: {
  releaseId: string;
  jiraRelease: string;
  onChange: (change: { releaseId?: string; jiraRelease?: string }) => void;
}) {
  const spira = useSpiraReleases();
  const jira = useJiraReleaseVersions();
  const why = (query: { isPending: boolean; error: Error | null }) =>
    query.isPending ? "Loading…" : query.error ? query.error.message : undefined;
  return (
    <Box sx={{ display: "grid", gridTemplateColumns: "1fr 1fr", gap: 2 }}>
      <TextField
        select
        label="Spira release"
        value={spira.data ? releaseId : ""}
        disabled={!spira.data}
        onChange={(event) => onChange({ releaseId: event.target.value })}
        helperText={why(spira)}
      >
        <MenuItem value="">–</MenuItem>
        {(spira.data ?? []).map((release) => (
          <MenuItem key={release.ReleaseId} value={String(release.ReleaseId)}>
            {release.FullName}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        label="Jira release"
        value={jira.data ? jiraRelease : ""}
        disabled={!jira.data}
        onChange={(event) => onChange({ jiraRelease: event.target.value })}
        helperText={why(jira)}
      >
        <MenuItem value="">–</MenuItem>
        {(jira.data ?? []).map((version) => (
          <MenuItem key={version.name} value={version.name}>
            {version.name}
            {version.released ? "" : " (unreleased)"}
          </MenuItem>
        ))}
      </TextField>
    </Box>
  );
}
