import { DH_FETCH_ERROR, type DhRun } from "@assay/core";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import LinearProgress from "@mui/material/LinearProgress";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { lazy, Suspense, useState } from "react";
import { useSignedIn } from "../../api/use-signed-in";
import { DhChangesPanel } from "./DhChangesPanel";
import { DhCountGrid } from "./DhCountGrid";
import { DhFhirAccordion } from "./DhFhirAccordion";
import { DhGlobalAccordion } from "./DhGlobalAccordion";
import { DhFindMissingRows } from "./DhMissingRows";
import { canRun, DhSelectors, initialSelection } from "./DhSelectors";
import { DhSfdcDocuments } from "./DhSfdcDocuments";
import { DhTotalsBar } from "./DhTotalsBar";
import {
  runQuery,
  useDhEnvironments,
  useDhRun,
  useDhRuns,
  useStartDhRun,
  type DhSelection,
} from "./use-dh";

// The chart library is large: fetched when a run is first shown, not with the selectors.
const DhChart = lazy(async () => ({ default: (await import("./DhChart")).DhChart }));

function Results({ run, signedIn }: { run: DhRun; signedIn: boolean }) {
  if (run.kind === "fhir") return <DhFhirAccordion rows={run.rows} />;
  if (run.kind === "global") return <DhGlobalAccordion rows={run.rows} />;
  if (run.kind === "sfdc") return <DhSfdcDocuments rows={run.rows} />;
  if (run.kind === "nosql") return <DhCountGrid rows={run.rows} documents />;
  return (
    <DhCountGrid
      rows={run.rows}
      documents={false}
      action={(row) => <DhFindMissingRows runId={run.id} row={row} signedIn={signedIn} />}
    />
  );
}

const STATE_TEXT: Record<DhRun["state"], string> = {
  queued: "Queued",
  running: "Running",
  done: "Finished",
  failed: "Failed",
};

/** The Data Validation tab: selectors, Run Report, and the chosen environment's last run. */
export function DataValidation() {
  const signedIn = useSignedIn();
  const [selection, setSelection] = useState<DhSelection>(initialSelection());
  const environments = useDhEnvironments(selection);
  const runs = useDhRuns(selection, canRun(selection));
  const start = useStartDhRun();
  const [startedId, setStartedId] = useState<number | undefined>();
  const latestId = runs.data?.[0]?.id;
  const runId = startedId ?? latestId;
  const run = useDhRun(runId);
  const [comparing, setComparing] = useState(false);

  const active = run.data?.state === "queued" || run.data?.state === "running";
  const busy = environments.isFetching || start.isPending || active;
  const options = environments.data ?? [];
  const demo =
    run.data?.demo ??
    options.find((e) => e.value === selection.env)?.demo ??
    options.some((e) => e.demo);
  const fetchError = environments.error ?? runs.error ?? run.error;

  const change = (next: DhSelection) => {
    setSelection(next);
    setStartedId(undefined);
    setComparing(false);
    start.reset();
  };
  const onRun = () => {
    const q = runQuery(selection);
    start.mutate(
      {
        platform: selection.platform,
        type: selection.platform === "global" ? "sql" : selection.type,
        envType: q.envType,
        env: q.env,
        ...(selection.schema ? { schema: selection.schema } : {}),
      },
      { onSuccess: (summary) => setStartedId(summary.id) },
    );
  };

  return (
    <Box>
      {demo && (
        <Alert severity="info" sx={{ mb: 2 }}>
          Demo data: these environments compare Assay&apos;s built-in demo stores (schemas in its
          PostgreSQL standing for MySQL, Redshift and DocumentDB, and NDJSON files in its data
          folder standing for S3). Configure real sources in assay.config.yaml.
        </Alert>
      )}
      <DhSelectors
        selection={selection}
        onChange={change}
        environments={options}
        busy={busy}
        signedIn={signedIn}
        onRun={onRun}
      />
      {!environments.isFetching &&
        !environments.error &&
        options.length === 0 &&
        canRun(selection) === false &&
        selection.platform !== "global" && (
          <Typography color="text.secondary" sx={{ mt: 1 }}>
            No {selection.type} {selection.envType} environment is configured for this platform.
          </Typography>
        )}
      {busy && <LinearProgress sx={{ mt: 2 }} aria-label="Fetching" />}
      {fetchError && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {DH_FETCH_ERROR}: {fetchError.message}
        </Alert>
      )}
      {start.error && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {start.error.message}
        </Alert>
      )}
      {run.data && (
        <Box sx={{ mt: 3 }}>
          <Stack direction="row" spacing={2} sx={{ alignItems: "center", mb: 2 }}>
            <Typography variant="h2">
              Run {run.data.id}: {STATE_TEXT[run.data.state]}
            </Typography>
            <Typography color="text.secondary">
              started {run.data.createdAt.slice(0, 19).replace("T", " ")} UTC
              {run.data.startedBy ? ` by ${run.data.startedBy}` : ""}
            </Typography>
            <Box sx={{ flexGrow: 1 }} />
            <Button
              variant="outlined"
              size="small"
              disabled={active}
              onClick={() => setComparing((c) => !c)}
            >
              Compare with previous
            </Button>
            <Button
              variant="outlined"
              size="small"
              href={`/v1/dh/runs/${run.data.id}/csv`}
              download
            >
              Export CSV
            </Button>
          </Stack>
          {run.data.error && (
            <Alert severity="error" sx={{ mb: 2 }}>
              {run.data.error}
            </Alert>
          )}
          {comparing && <DhChangesPanel runId={run.data.id} />}
          <DhTotalsBar totals={run.data.totals} />
          <Results run={run.data} signedIn={signedIn} />
          {run.data.rows.length > 0 && (
            <Suspense fallback={null}>
              <DhChart run={run.data} />
            </Suspense>
          )}
        </Box>
      )}
      {!run.data &&
        !busy &&
        !canRun(selection) &&
        (selection.platform === "global" || options.length > 0) && (
          <Typography color="text.secondary" sx={{ mt: 3 }}>
            Choose {selection.platform === "global" ? "a global schema" : "an environment"}, then
            press Run Report: each store&apos;s record counts are compared here.
          </Typography>
        )}
      {!run.data && !busy && canRun(selection) && runs.data?.length === 0 && (
        <Typography color="text.secondary" sx={{ mt: 3 }}>
          No report for this environment yet: press Run Report.
        </Typography>
      )}
    </Box>
  );
}
