import {
  runWallClockMs,
  summarizeFailures,
  type DisplayStatus,
  type FailureFilter,
  type FrontendRunDetail,
} from "@assay/core";
import { TicketDetailsNotice, TicketDetailsProvider } from "../../../components/TicketDetails";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Dialog from "@mui/material/Dialog";
import Skeleton from "@mui/material/Skeleton";
import { memo, useMemo } from "react";
import { useCatalog } from "../../../api/use-catalog";
import { RunWarnings } from "../RunWarnings";
import { useDynamicTags, useFrontendRun, useRunHistory } from "../use-runs";
import { useStableCallback } from "../use-stable-callback";
import { useResultFilters } from "./filters-context";
import { ResultFilterBar, ShownCount } from "./ResultFilterBar";
import {
  countResults,
  dynamicTagsOf,
  filterResults,
  finalResults,
  idTagMatcher,
  tagOptions,
  tagTestsOf,
} from "./result-filter";
import type { CardSettings } from "./ResultCard";
import { ResultList } from "./ResultList";
import { ResultsHeader, RESULTS_TITLE_ID } from "./ResultsHeader";
import { ResultsSummary } from "./ResultsSummary";

export const RESULTS_ERROR = "Error occurred fetching results";
// Until the catalogue's ticket pattern is known, no text is taken for a ticket.
const NEVER_MATCHES = "(?!)";

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

function ResultsBody({
  runKey,
  detail,
  history,
  onOpenTest,
}: Omit<FrontendResultsDialogProps, "onClose"> & {
  detail: FrontendRunDetail;
  history: ReturnType<typeof useRunHistory>;
}) {
  const { filters, onFilters } = useResultFilters();
  const catalog = useCatalog();
  const dtags = useDynamicTags();

  const finals = useMemo(() => finalResults(detail.results), [detail.results]);
  // Every failure's tickets, looked up in one batch for the cards' status chips.
  const tickets = useMemo(() => finals.flatMap((result) => result.tickets), [finals]);
  const counts = useMemo(() => countResults(finals), [finals]);
  const majorTags = catalog.data?.majorTags;
  const groups = useMemo(
    () =>
      majorTags &&
      summarizeFailures(
        finals.filter((result) => result.derived_status === "failed"),
        majorTags,
      ),
    [finals, majorTags],
  );
  const tagTests = useMemo(() => tagTestsOf(dtags.data), [dtags.data]);
  const testIdPattern = catalog.data?.testIdPattern;
  const isIdTag = useMemo(() => idTagMatcher(testIdPattern), [testIdPattern]);
  const options = useMemo(() => tagOptions(finals, tagTests, isIdTag), [finals, tagTests, isIdTag]);
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
  const shown = useMemo(
    () => filterResults(finals, filters, { tagTests, history: history.data }),
    [finals, filters, tagTests, history.data],
  );

  const historyState = history.isError ? "error" : history.isPending ? "loading" : "ready";
  const tagNote = dtags.isError
    ? `Dynamic tags could not be loaded (${dtags.error.message}); the filter offers the tags on these results.`
    : null;
  let emptyMessage = `Nothing to show: the Hide switches and filters leave out all ${finals.length} results.`;
  if (finals.length === 0) emptyMessage = "This run has no results.";
  else if (filters.failure && historyState === "loading") emptyMessage = "Loading recent history…";
  else if (filters.failure && historyState === "error") {
    emptyMessage = "The failure filter needs the recent history, which could not be loaded.";
  }
  // A new filter starts the list at its top.
  const filterKey = [...filters.hidden, "|", ...filters.tags, "|", filters.failure].join(",");

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

  return (
    <TicketDetailsProvider tickets={tickets}>
      <RunWarnings warnings={detail.warnings} />
      <TicketDetailsNotice />
      <ResultsSummary
        runKey={detail.run.test_run_key}
        counts={counts}
        wallClockMs={runWallClockMs(detail.run)}
        testTimeMs={detail.run.duration_ms}
        groups={groups}
        hidden={filters.hidden}
        onHidden={onHidden}
      />
      <Box sx={{ display: "flex", gap: 2, alignItems: "flex-start" }}>
        <ResultFilterBar
          tagOptions={options}
          tags={filters.tags}
          onTags={onTags}
          tagNote={tagNote}
          failure={filters.failure}
          onFailure={onFailure}
        />
        <ShownCount historyState={historyState} shown={shown.length} total={finals.length} />
      </Box>
      <ResultList
        results={shown}
        resetKey={filterKey}
        history={history.data}
        historyLoading={history.isPending}
        settings={settings}
        emptyMessage={emptyMessage}
      />
    </TicketDetailsProvider>
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
  const run = useFrontendRun(props.runKey);
  // Asked for once the run is in: fetched and parsed beside it, the history would delay the
  // first cards, and the icons and the failure filter can come a moment later.
  const history = useRunHistory(props.runKey, run.isSuccess);
  return (
    <Dialog
      fullScreen
      open
      onClose={props.onClose}
      aria-labelledby={RESULTS_TITLE_ID}
      transitionDuration={{ enter: 120, exit: 80 }}
    >
      <ResultsHeader runKey={props.runKey} run={run.data?.run} onClose={props.onClose} />
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
        {run.isError ? (
          <Alert severity="error">{RESULTS_ERROR}</Alert>
        ) : run.data ? (
          <ResultsBody {...props} detail={run.data} history={history} />
        ) : (
          <ResultsSkeleton />
        )}
      </Box>
    </Dialog>
  );
});
