import {
  formatUtc,
  runWallClockMs,
  type DisplayStatus,
  type FailureFilter,
  type FrontendRun,
} from "@assay/core";
import { TicketDetailsNotice, TicketDetailsProvider } from "../../../components/TicketDetails";
import Box from "@mui/material/Box";
import Skeleton from "@mui/material/Skeleton";
import { memo, useMemo, useState } from "react";
import { useCatalog } from "../../../api/use-catalog";
import { RunBuilds } from "../builds/RunBuilds";
import { RunWarnings } from "../RunWarnings";
import { useDynamicTags } from "../use-runs";
import { useStableCallback } from "../use-stable-callback";
import { ResultSearch } from "../view/ResultSearch";
import { useRunView } from "../view/use-run-view";
import { useResultFilters } from "./filters-context";
import { ResultFilterBar } from "./ResultFilterBar";
import { ShownCount } from "../view/ShownCount";
import { dynamicTagsOf, idTagMatcher, tagTestsOf } from "./result-filter";
import type { CardSettings } from "./ResultCard";
import { ResultList } from "./ResultList";
import { joinFacts, ResultsHeader } from "../view/ResultsHeader";
import { ResultsSummary } from "./ResultsSummary";
import { TriageBoxes } from "../../triage/TriageBoxes";
import { CauseFilters, showingFailures, type CauseFilter } from "../../triage/CauseFilters";
import { ResultsError } from "../view/ResultsError";
import { ResultsDialogFrame } from "../view/ResultsDialogFrame";

// Until the catalogue's ticket pattern is known, no text is taken for a ticket.
const NEVER_MATCHES = "(?!)";

const RESULTS_TITLE_ID = "frontend-results-title";

/** The facts the dialog's bar shows after the run key. */
const runCaption = (run: FrontendRun) =>
  joinFacts([
    run.test_run_name,
    run.nora_site,
    run.is_next_gen ? "NextGen" : "Legacy",
    run.is_china_region ? "China" : null,
    run.executor,
    run.branch,
    formatUtc(run.created_at),
  ]);

/** What a failure shows as here: a cause filter shows them whatever the Hide switches were. */
const FAILURES: readonly DisplayStatus[] = ["failed", "unstable"];

export interface FrontendResultsDialogProps {
  runKey: string;
  /** Opens a result's detail (its test_run_test_id). */
  onOpenTest: (testKey: string) => void;
  onClose: () => void;
}

function ResultsSkeleton() {
  return (
    <Box aria-busy="true" aria-label="Loading results" sx={{ display: "grid", gap: 1 }}>
      <Box sx={{ display: "flex", gap: 1 }}>
        {Array.from({ length: 7 }, (_, i) => (
          <Skeleton key={i} variant="rounded" height={96} sx={{ flex: i === 2 ? 3 : 1 }} />
        ))}
      </Box>
      <Skeleton variant="rounded" height={40} />
      {Array.from({ length: 4 }, (_, i) => (
        <Skeleton key={i} variant="rounded" height={140} />
      ))}
    </Box>
  );
}

/** The card settings every card shares: catalogue patterns and the dynamic tags' chips. */
function useCardSettings(runKey: string, onOpenTest: (testKey: string) => void) {
  const catalog = useCatalog();
  const dtags = useDynamicTags();
  const tagTests = useMemo(() => tagTestsOf(dtags.data), [dtags.data]);
  const testIdPattern = catalog.data?.testIdPattern;
  const isIdTag = useMemo(() => idTagMatcher(testIdPattern), [testIdPattern]);
  const ticketPattern = catalog.data?.ticketPattern ?? NEVER_MATCHES;
  const trackerUrl = catalog.data?.issueTrackerUrl;
  const settings = useMemo<CardSettings>(
    () => ({
      runKey,
      ticketPattern,
      trackerUrl,
      isIdTag,
      dynamicTagsOf: dynamicTagsOf(tagTests),
      onDetails: onOpenTest,
    }),
    [runKey, ticketPattern, trackerUrl, isIdTag, tagTests, onOpenTest],
  );
  const tagNote = dtags.isError
    ? `Dynamic tags could not be loaded (${dtags.error.message}); the cards show their report tags only.`
    : null;
  return { settings, tagNote };
}

/**
 * The dialog's content, from the run view (use-run-view.ts): the server counts, summarizes and
 * filters the run, and sends the cards a page at a time as the list scrolls.
 */
function ViewedResults({ runKey, onOpenTest, onClose }: FrontendResultsDialogProps) {
  const { filters, onFilters } = useResultFilters();
  const [search, setSearch] = useState("");
  const view = useRunView("frontend", runKey, { ...filters, search });
  const cause = useMemo(
    () => ({ group: filters.group ?? null, defect: filters.defect ?? null }),
    [filters.group, filters.defect],
  );
  const { settings, tagNote } = useCardSettings(runKey, onOpenTest);
  const first = view.first;

  const onHidden = useStableCallback((status: DisplayStatus, hide: boolean) => {
    const hidden = new Set(filters.hidden);
    if (hide) hidden.add(status);
    else hidden.delete(status);
    onFilters({ ...filters, hidden });
  });
  const onTags = useStableCallback((tags: string[]) => onFilters({ ...filters, tags }));
  const onFailure = useStableCallback((failure: FailureFilter | null) =>
    onFilters({ ...filters, failure }),
  );
  const onSearch = useStableCallback((text: string) => setSearch(text));
  const onCause = useStableCallback((next: CauseFilter) =>
    onFilters({ ...filters, ...next, hidden: showingFailures(filters.hidden, FAILURES, next) }),
  );
  // The loaded pages' tickets, looked up in one batch for their status chips.
  const tickets = useMemo(() => view.rows.flatMap((row) => row.tickets), [view.rows]);

  // A new filter starts the list at its top.
  const filterKey = [
    ...filters.hidden,
    "|",
    ...filters.tags,
    "|",
    filters.failure,
    cause.group,
    cause.defect,
    search,
  ].join();
  // The previous filter's list stays while the new one's first page is on its way.
  const filtering = view.query.isPlaceholderData;
  let emptyMessage = `Nothing to show: the Hide switches and filters leave out all ${first?.total ?? 0} results.`;
  if (first?.total === 0) emptyMessage = "This run has no results.";

  let body;
  if (view.query.isError && !first) body = <ResultsError error={view.query.error} />;
  else if (!first?.summary) body = <ResultsSkeleton />;
  else {
    body = (
      <>
        <RunBuilds
          family="frontend"
          runKey={first.run.test_run_key}
          china={first.run.is_china_region}
        />
        <RunWarnings warnings={first.warnings} />
        <TicketDetailsNotice />
        <ResultsSummary
          runKey={first.run.test_run_key}
          runName={first.run.test_run_name}
          place={first.run.nora_site}
          counts={first.summary.counts}
          wallClockMs={runWallClockMs(first.run)}
          testTimeMs={first.run.duration_ms}
          groups={first.summary.failed_groups}
          hidden={filters.hidden}
          onHidden={onHidden}
        />
        <TriageBoxes runKey={first.run.test_run_key} />
        <Box sx={{ display: "flex", gap: 2, alignItems: "flex-start", flexWrap: "wrap" }}>
          <ResultFilterBar
            tagOptions={first.summary.tag_options}
            tags={filters.tags}
            onTags={onTags}
            tagNote={tagNote}
            failure={filters.failure}
            onFailure={onFailure}
          />
          <CauseFilters runKey={first.run.test_run_key} value={cause} onChange={onCause} />
          <ResultSearch onSearch={onSearch} />
          <ShownCount
            historyState={filtering && filters.failure ? "loading" : "ready"}
            shown={first.shown}
            total={first.total}
          />
        </Box>
        {view.query.isError && <ResultsError error={view.query.error} />}
        <ResultList
          count={first.shown}
          rowAt={view.rowAt}
          onRowsShown={view.onRowsShown}
          resetKey={filterKey}
          history={view.history}
          historyLoading={false}
          settings={settings}
          emptyMessage={emptyMessage}
        />
      </>
    );
  }
  return (
    <>
      <ResultsHeader
        runKey={runKey}
        titleId={RESULTS_TITLE_ID}
        caption={first && runCaption(first.run)}
        onClose={onClose}
      />
      <Box
        sx={{
          flex: 1,
          minHeight: 0,
          display: "flex",
          flexDirection: "column",
          gap: 1.5,
          p: 2,
          bgcolor: "background.default",
        }}
      >
        <TicketDetailsProvider tickets={tickets}>{body}</TicketDetailsProvider>
      </Box>
    </>
  );
}

/**
 * The Frontend results dialog (full screen): a run's info boxes with Hide switches and Failed
 * Summary, its filters, and its results as a virtualized list of cards. Its state (filters
 * included, from FiltersContext) is the page URL's, so the copy-link button copies exactly this
 * view.
 */
export const FrontendResultsDialog = memo(function FrontendResultsDialog(
  props: FrontendResultsDialogProps,
) {
  return (
    <ResultsDialogFrame onClose={props.onClose} labelledBy={RESULTS_TITLE_ID}>
      <ViewedResults {...props} />
    </ResultsDialogFrame>
  );
});
