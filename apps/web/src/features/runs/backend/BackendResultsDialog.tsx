import { formatUtc, type BackendRun } from "@assay/core";
import Box from "@mui/material/Box";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useParams, useSearchParams } from "react-router";
import { useCatalog } from "../../../api/use-catalog";
import { ApiRequestsDialog } from "./ApiRequestsDialog";
import { BackendResultList } from "./BackendResultList";
import { RunBuilds } from "../builds/RunBuilds";
import { RunWarnings } from "../RunWarnings";
import { BackendSummary } from "./BackendSummary";
import { TriageBoxes } from "../../triage/TriageBoxes";
import { CauseFilters, showingFailures, type CauseFilter } from "../../triage/CauseFilters";
import { ShownCount } from "../view/ShownCount";
import { useStableCallback } from "../use-stable-callback";
import { ResultSearch } from "../view/ResultSearch";
import { backendViewFilters, useRunView, type BackendHideable } from "../view/use-run-view";
import { ResultsError } from "../view/ResultsError";
import { ResultsDialogFrame } from "../view/ResultsDialogFrame";
import { joinFacts, ResultsHeader } from "../view/ResultsHeader";

const TITLE_ID = "backend-results-title";

/** The facts the dialog's bar shows after the run key. */
const runCaption = (run: BackendRun) =>
  joinFacts([
    run.test_run_name,
    run.env ?? run.baseurl,
    run.is_china_region ? "China" : null,
    run.executor,
    run.branch,
    formatUtc(run.created_at),
  ]);

/** Query parameter that keeps the API Requests dialog open in a shared link. */
export const API_LOG_PARAM = "api_log";

export interface BackendResultsDialogProps {
  runKey: string;
  open: boolean;
  onClose(): void;
}

/** What a failure shows as here (no Unstable box): a cause filter shows them. */
const FAILED: readonly BackendHideable[] = ["failed"];

/**
 * The Backend results dialog (spec section 2), full screen: the run's info boxes and its
 * results, each expanding into error, stack, console log, script and API requests. A test key
 * in the URL (/test_runs/{key}/{test_key}?be=1) opens that result.
 */
export function BackendResultsDialog({ runKey, open, onClose }: BackendResultsDialogProps) {
  const { test_key: linkedTest } = useParams();
  const [hidden, setHidden] = useState<ReadonlySet<BackendHideable>>(() => new Set());
  const onHide = (status: BackendHideable, hide: boolean) =>
    setHidden((current) => {
      const next = new Set(current);
      if (hide) next.add(status);
      else next.delete(status);
      return next;
    });
  const [search, setSearch] = useState("");
  const onSearch = useStableCallback((text: string) => setSearch(text));
  const [cause, setCause] = useState<CauseFilter>({ group: null, defect: null });
  const view = useRunView(
    "backend",
    runKey,
    backendViewFilters(hidden, search, linkedTest, cause),
    open,
  );
  const run = view.query;
  const [searchParams, setSearchParams] = useSearchParams();
  const apiLogOpen = searchParams.get(API_LOG_PARAM) === "1";

  const setApiLogOpen = (next: boolean) =>
    setSearchParams((params) => {
      const updated = new URLSearchParams(params);
      if (next) updated.set(API_LOG_PARAM, "1");
      else updated.delete(API_LOG_PARAM);
      return updated;
    });

  return (
    <ResultsDialogFrame open={open} onClose={onClose} labelledBy={TITLE_ID}>
      <ResultsHeader
        runKey={runKey}
        titleId={TITLE_ID}
        caption={view.first && runCaption(view.first.run)}
        onClose={onClose}
      />
      <Box
        sx={{
          display: "flex",
          flexDirection: "column",
          gap: 2,
          p: 2,
          flex: 1,
          minHeight: 0,
          bgcolor: "background.default",
        }}
      >
        {run.isPending ? (
          <LoadingState />
        ) : run.isError && !view.first ? (
          <ResultsError error={run.error} />
        ) : (
          <RunResults
            runKey={runKey}
            view={view}
            hidden={hidden}
            resetKey={`${[...hidden].sort().join(",")}|${search}|${cause.group}|${cause.defect}`}
            onHide={onHide}
            onSearch={onSearch}
            cause={cause}
            onCause={(next) => {
              setCause(next);
              setHidden((current) => showingFailures(current, FAILED, next));
            }}
            onViewApiRequests={() => setApiLogOpen(true)}
          />
        )}
      </Box>
      {apiLogOpen && (
        <ApiRequestsDialog runKey={runKey} open onClose={() => setApiLogOpen(false)} />
      )}
    </ResultsDialogFrame>
  );
}

function LoadingState() {
  return (
    <Box
      aria-label="Loading results"
      aria-busy
      sx={{ display: "flex", flexDirection: "column", gap: 2 }}
    >
      <Box sx={{ display: "flex", gap: 1.5 }}>
        {[0, 1, 2, 3].map((box) => (
          <Skeleton key={box} variant="rounded" width={box === 3 ? 360 : 160} height={104} />
        ))}
      </Box>
      {[0, 1, 2, 3, 4, 5].map((row) => (
        <Skeleton key={row} variant="rounded" height={44} />
      ))}
    </Box>
  );
}

/**
 * The run's boxes and results from the run view (use-run-view.ts): counts and Failed Summary
 * from the server, Hide Failed and the search answered by it, the rows a page at a time.
 */
function RunResults({
  runKey,
  view,
  hidden,
  resetKey,
  onHide,
  onSearch,
  cause,
  onCause,
  onViewApiRequests,
}: {
  runKey: string;
  view: ReturnType<typeof useRunView<"backend">>;
  hidden: ReadonlySet<BackendHideable>;
  /** Changes with the filters: the list then starts again at its top. */
  resetKey: string;
  onHide: (status: BackendHideable, hide: boolean) => void;
  onSearch: (text: string) => void;
  cause: CauseFilter;
  onCause: (cause: CauseFilter) => void;
  onViewApiRequests: () => void;
}) {
  const catalog = useCatalog();
  const { test_key: linkedTest } = useParams();
  const first = view.first;
  if (!first?.summary) return <LoadingState />;
  return (
    <>
      <RunBuilds family="backend" runKey={first.run.test_run_key} china={false} />
      <RunWarnings warnings={first.warnings} />
      <BackendSummary
        run={first.run}
        hidden={hidden}
        onHide={onHide}
        onViewApiRequests={onViewApiRequests}
        failedGroups={first.summary.failed_groups}
      />
      <TriageBoxes runKey={first.run.test_run_key} />
      {first.total === 0 ? (
        <Typography color="text.secondary" sx={{ p: 2 }}>
          {first.run.state === "open"
            ? "No results in this run yet: its reporter is still sending them."
            : "This run has no results."}
        </Typography>
      ) : (
        <>
          <Box sx={{ display: "flex", alignItems: "center", gap: 2, flexWrap: "wrap" }}>
            <CauseFilters runKey={runKey} value={cause} onChange={onCause} />
            <ResultSearch onSearch={onSearch} />
            <ShownCount historyState="ready" shown={first.shown} total={first.total} />
          </Box>
          <BackendResultList
            runKey={runKey}
            count={first.shown}
            rowAt={view.rowAt}
            onRowsShown={view.onRowsShown}
            resetKey={resetKey}
            repositoryUrl={catalog.data?.sourceRepositoryUrl}
            initialExpanded={linkedTest}
            linkedIndex={first.located}
          />
        </>
      )}
    </>
  );
}
