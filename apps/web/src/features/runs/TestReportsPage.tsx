import type { RunFilters } from "@assay/core";
import Refresh from "@mui/icons-material/Refresh";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Paper from "@mui/material/Paper";
import Tab from "@mui/material/Tab";
import Tabs from "@mui/material/Tabs";
import { useIsFetching } from "@tanstack/react-query";
import { memo, useEffect, useMemo, useState, type ComponentType } from "react";
import { useNavigate, useParams, useSearchParams } from "react-router";
import {
  DEFAULT_FILTERS,
  readReportState,
  REPORT_TABS,
  reportHref,
  type ReportState,
  type ReportTab,
  type RunPageSize,
} from "./report-url";
import { RunDialogs } from "./RunDialogs";
import { RunFilterBar } from "./RunFilterBar";
import { BackendRunList, FrontendRunList, LoadRunList, type RunListProps } from "./RunLists";
import { useRefreshRunList } from "./use-runs";
import { useStableCallback } from "./use-stable-callback";
import { isOpeningRead, openingReadPainted } from "./view/opening-read";

const TAB_LABEL: Record<ReportTab, string> = {
  frontend: "Frontend",
  backend: "Backend",
  load: "Load",
};

const LISTS: Record<ReportTab, ComponentType<RunListProps>> = {
  frontend: FrontendRunList,
  backend: BackendRunList,
  load: LoadRunList,
};

/** Tabs and Refresh; memoized, so that the dialogs' URL changes leave it alone. */
const ListToolbar = memo(function ListToolbar({
  tab,
  refreshing,
  onTab,
  onRefresh,
}: {
  tab: ReportTab;
  refreshing: boolean;
  onTab: (tab: ReportTab) => void;
  onRefresh: () => void;
}) {
  return (
    <Box
      sx={{
        display: "flex",
        alignItems: "center",
        gap: 2,
        pl: 1,
        pr: 2,
        borderBottom: 1,
        borderColor: "divider",
      }}
    >
      <Tabs
        value={tab}
        onChange={(_event, next: ReportTab) => onTab(next)}
        aria-label="Run families"
      >
        {REPORT_TABS.map((value) => (
          <Tab key={value} value={value} label={TAB_LABEL[value]} />
        ))}
      </Tabs>
      <Button
        variant="outlined"
        startIcon={<Refresh />}
        onClick={onRefresh}
        disabled={refreshing}
        sx={{ ml: "auto" }}
      >
        Refresh
      </Button>
    </Box>
  );
});

/**
 * False while the page, opened cold at a run's dialog, waits for the dialog's first page to be
 * painted (opening-read.ts): the tabs and run list are behind the full-screen dialog, and
 * rendering them first would hold the dialog's first rows back by as long.
 */
function useListAfterOpeningRead(): boolean {
  const [ready, setReady] = useState(() => !isOpeningRead());
  useEffect(() => {
    if (ready) return;
    let live = true;
    void openingReadPainted().then(() => live && setReady(true));
    return () => {
      live = false;
    };
  }, [ready]);
  return ready;
}

/**
 * Test Reports (/test_runs/:key?/:test_key?): the Frontend, Backend and Load run lists on tabs,
 * with Refresh for the tab on screen; a run key in the URL opens that run's dialog.
 */
export function TestReportsPage() {
  const params = useParams();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const refresh = useRefreshRunList();
  const state = useMemo(
    () => readReportState({ key: params.key, test_key: params.test_key }, search),
    [params.key, params.test_key, search],
  );
  const refreshing = useIsFetching({ queryKey: ["run-list", state.tab] }) > 0;
  const go = (next: ReportState, replace = false) => void navigate(reportHref(next), { replace });
  const onPaging = useStableCallback((page: number, size: RunPageSize) =>
    go({ ...state, page, size }),
  );
  const List = LISTS[state.tab];
  const listReady = useListAfterOpeningRead();

  // Filters belong to a family's list (platform and region are UI runs' only): a tab starts clear.
  const onTab = useStableCallback((tab: ReportTab) =>
    go({ ...state, tab, page: 1, dialog: null, filters: DEFAULT_FILTERS, list: {} }),
  );
  const onRefresh = useStableCallback(
    () => void refresh(state.tab, state.page, state.size, state.list),
  );
  const onFilters = useStableCallback((list: RunFilters) => go({ ...state, page: 1, list }));
  const onClearFilters = useStableCallback(() => go({ ...state, page: 1, list: {} }));
  // The same object while the filters are the same: the memoized lists and their queries are
  // left alone when only the dialog's part of the URL changes.
  const filterKey = JSON.stringify(state.list ?? {});
  const filters = useMemo(() => JSON.parse(filterKey) as RunFilters, [filterKey]);

  return (
    <Paper variant="outlined">
      {listReady && (
        <>
          <ListToolbar
            tab={state.tab}
            refreshing={refreshing}
            onTab={onTab}
            onRefresh={onRefresh}
          />
          <RunFilterBar tab={state.tab} filters={filters} onChange={onFilters} />
          <List
            tab={state.tab}
            page={state.page}
            size={state.size}
            filters={filters}
            onClearFilters={onClearFilters}
            onPaging={onPaging}
          />
        </>
      )}
      <RunDialogs state={state} go={go} />
    </Paper>
  );
}
