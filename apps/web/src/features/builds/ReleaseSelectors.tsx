import { NOT_CONFIGURED } from "@assay/core";
import Box from "@mui/material/Box";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import {
  useIntegrations,
  useJiraReleaseVersions,
  useSpiraReleases,
} from "../../api/use-integrations";

/**
 * The OQ run's Spira and Jira release selectors (spec: Spira releases ReleaseId + FullName, Jira
 * releases by name), from GET /v1/spira/releases and /v1/jira/release-versions. While a list
 * loads, or when its tracker is not configured or down, the selector is disabled and says why;
 * the run may then go without that release.
 */
export function ReleaseSelectors({
  releaseId,
  jiraRelease,
  error,
  onChange,
}: {
  releaseId: string;
  jiraRelease: string;
  /** Why the run cannot start yet (no release chosen): said under both selectors. */
  error?: string | undefined;
  onChange: (change: { releaseId?: string; jiraRelease?: string }) => void;
}) {
  // A list is asked for only from a configured tracker: an unconfigured one is said so here,
  // not by a refused request (an error in the browser's console).
  const integrations = useIntegrations();
  const spiraOn = integrations.data?.spira.configured === true;
  const jiraOn = integrations.data?.jira.configured === true;
  const spira = useSpiraReleases(spiraOn);
  const jira = useJiraReleaseVersions(jiraOn);
  const why = (
    tracker: keyof typeof NOT_CONFIGURED,
    on: boolean,
    query: { isPending: boolean; error: Error | null },
  ) => {
    if (integrations.isPending) return "Loading…";
    if (integrations.error) return integrations.error.message;
    if (!on) return NOT_CONFIGURED[tracker];
    return query.isPending ? "Loading…" : query.error ? query.error.message : undefined;
  };
  return (
    <Box sx={{ display: "grid", gridTemplateColumns: "1fr 1fr", gap: 2 }}>
      <TextField
        select
        label="Spira release"
        value={spira.data ? releaseId : ""}
        disabled={!spira.data}
        onChange={(event) => onChange({ releaseId: event.target.value })}
        error={error !== undefined}
        helperText={error ?? why("spira", spiraOn, spira)}
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
        error={error !== undefined}
        helperText={error ?? why("jira", jiraOn, jira)}
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
