import {
  DEFAULT_RELEASE_VIEW,
  RELEASE_VIEW_LABELS,
  RELEASE_VIEWS,
  releasesInView,
  type ReleaseReport,
  type ReleaseView,
} from "@assay/core";
import Alert from "@mui/material/Alert";
import AlertTitle from "@mui/material/AlertTitle";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Link from "@mui/material/Link";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { Link as RouterLink, useSearchParams } from "react-router";
import { ApiError } from "../../api/client";
import { ReleaseSources } from "./ReleaseSources";
import { ReleasesChart } from "./ReleasesChart";
import { ReleasesTable } from "./ReleasesTable";
import { useReleaseReport } from "./use-release-report";

const CHART_HEIGHT = 360;

const isView = (value: string | null): value is ReleaseView =>
  (RELEASE_VIEWS as readonly (string | null)[]).includes(value);

/** Why a view is empty, and what would fill it. */
const EMPTY_VIEW: Record<ReleaseView, string> = {
  major: "No release version contains '.0'.",
  all: "",
  withOq:
    "No release has an OQ run yet: start a build with the run type OQ Test and its Jira release on the Builds screen.",
  withIn: "No release has incidents matching the incident JQL (ASSAY_JIRA_INCIDENT_JQL).",
};

function Failed({ error, retry }: { error: Error; retry: () => void }) {
  if (error instanceof ApiError && error.code === "not_configured")
    return (
      <Alert severity="warning">
        <AlertTitle>Jira is not configured</AlertTitle>
        {error.message} The report's release versions and incidents come from Jira; the OQ runs from
        the OQ builds started on the{" "}
        <Link component={RouterLink} to="/builds">
          Builds
        </Link>{" "}
        screen.
      </Alert>
    );
  return (
    <Alert
      severity="error"
      action={
        <Button color="inherit" onClick={retry}>
          Retry
        </Button>
      }
    >
      <AlertTitle>Could not load the release report</AlertTitle>
      {error.message}
    </Alert>
  );
}

/** The newest released version's notes: the page's link to the release notes. */
function LatestNotes({ report }: { report: ReleaseReport }) {
  if (!report.releaseNotesConfigured)
    return (
      <Typography variant="body2" color="text.secondary">
        Release notes: set ASSAY_RELEASE_NOTES_URL to link each version's notes.
      </Typography>
    );
  const latest = report.rows.filter((row) => row.released).at(-1) ?? report.rows.at(-1);
  if (!latest?.releaseNotesUrl) return null;
  return (
    <Link href={latest.releaseNotesUrl} target="_blank" rel="noopener noreferrer">
      Release notes of {latest.releaseVersion}
    </Link>
  );
}

function Report({ report, view }: { report: ReleaseReport; view: ReleaseView }) {
  const [, setSearch] = useSearchParams();
  const rows = releasesInView(report.rows, view);
  if (report.rows.length === 0)
    return (
      <Alert severity="info">
        The Jira project has no release versions yet: add versions in Jira (Releases) and they are
        listed here with their OQ runs and incidents.
      </Alert>
    );
  return (
    <Stack sx={{ gap: 2 }}>
      {report.notes.map((note) => (
        <Alert key={note} severity="info">
          {note}
        </Alert>
      ))}
      {rows.length === 0 ? (
        <Alert
          severity="info"
          action={
            <Button color="inherit" onClick={() => setSearch({ view: "all" })}>
              Show all releases
            </Button>
          }
        >
          {EMPTY_VIEW[view]}
        </Alert>
      ) : (
        <>
          <Paper variant="outlined" sx={{ p: 2 }}>
            <ReleasesChart rows={rows} height={CHART_HEIGHT} />
          </Paper>
          <Paper variant="outlined">
            <ReleasesTable rows={rows} />
          </Paper>
        </>
      )}
      <ReleaseSources report={report} />
      <Typography variant="caption" color="text.secondary">
        As of {new Date(report.generatedAt).toUTCString()}.
      </Typography>
    </Stack>
  );
}

/**
 * Nora Releases (spec §2): per release version, the OQ runs and the incidents closed and open,
 * as a stacked bar chart over a table, with the view select and the release notes. Opened from
 * the Dashboard; not in the sidebar.
 */
export function NoraReleasesPage() {
  const [search, setSearch] = useSearchParams();
  const asked = search.get("view");
  const view = isView(asked) ? asked : DEFAULT_RELEASE_VIEW;
  const report = useReleaseReport();
  return (
    <Stack sx={{ gap: 2 }}>
      <Stack direction="row" sx={{ alignItems: "center", gap: 2, flexWrap: "wrap" }}>
        <TextField
          select
          size="small"
          label="View"
          value={view}
          onChange={(event) => setSearch({ view: event.target.value }, { replace: true })}
          sx={{ minWidth: 240 }}
        >
          {RELEASE_VIEWS.map((option) => (
            <MenuItem key={option} value={option}>
              {RELEASE_VIEW_LABELS[option]}
            </MenuItem>
          ))}
        </TextField>
        <Box sx={{ ml: "auto" }}>{report.data && <LatestNotes report={report.data} />}</Box>
      </Stack>
      {report.isPending ? (
        <Box sx={{ display: "flex", justifyContent: "center", py: 8 }}>
          <CircularProgress aria-label="Loading the release report" />
        </Box>
      ) : report.isError ? (
        <Failed error={report.error} retry={() => void report.refetch()} />
      ) : (
        <Report report={report.data} view={view} />
      )}
    </Stack>
  );
}
