import type { RunFilters } from "@assay/core";
import { useQueryClient } from "@tanstack/react-query";
import { memo } from "react";
import { useCatalog } from "../../api/use-catalog";
import { backendColumns, frontendColumns, loadColumns } from "./run-columns";
import { RunListTable } from "./RunListTable";
import { CompareSelected, useRunPicks } from "./compare/CompareSelected";
import {
  DEFAULT_FILTERS,
  reportHref,
  type OpenDialog,
  type ReportTab,
  type RunPageSize,
} from "./report-url";
import { useRunList, type RunOf } from "./use-runs";
import { prefetchRunView } from "./view/use-run-view";

export interface RunListProps {
  tab: ReportTab;
  page: number;
  size: RunPageSize;
  /** The list's filters, as the URL holds them. */
  filters: RunFilters;
  onClearFilters: () => void;
  /** Moves the list to another page or page size (the URL keeps both). */
  onPaging: (page: number, size: RunPageSize) => void;
}

type Kind = OpenDialog["kind"];

function hrefOf({ tab, page, size, filters }: RunListProps, kind: Kind) {
  return (run: { test_run_key: string }) =>
    reportHref({
      tab,
      page,
      size,
      list: filters,
      filters: DEFAULT_FILTERS,
      dialog:
        kind === "load"
          ? { kind, key: run.test_run_key }
          : { kind, key: run.test_run_key, testKey: null },
    });
}

const rowKey = (run: { test_run_key: string }) => run.test_run_key;

function useTableProps<F extends ReportTab>(family: F, props: RunListProps) {
  const { page, size, onPaging, filters } = props;
  const list = useRunList(family, page, size, filters);
  return {
    data: list.data,
    isPending: list.isPending,
    isError: list.isError,
    isStale: list.isPlaceholderData,
    rowKey,
    page,
    size,
    filtered: Object.keys(filters).length > 0,
    onClearFilters: props.onClearFilters,
    onPage: (next: number) => onPaging(next, size),
    onSize: (next: RunPageSize) => onPaging(1, next),
  };
}

// The lists are memoized: a change of the dialog's filters above them must not re-render them.

export const FrontendRunList = memo(function FrontendRunList(props: RunListProps) {
  const table = useTableProps("frontend", props);
  const queryClient = useQueryClient();
  const href = hrefOf(props, "frontend");
  const picks = useRunPicks();
  return (
    <>
      <CompareSelected picks={picks} />
      <RunListTable<RunOf["frontend"]>
        label="Frontend runs"
        columns={frontendColumns(href)}
        rowHref={href}
        // A big run takes a moment to fetch: start when the pointer or focus reaches its row.
        onRowIntent={(run) =>
          void prefetchRunView(queryClient, "frontend", run.test_run_key, {
            ...DEFAULT_FILTERS,
            search: "",
          })
        }
        picks={picks}
        {...table}
      />
    </>
  );
});

export const BackendRunList = memo(function BackendRunList(props: RunListProps) {
  const table = useTableProps("backend", props);
  const href = hrefOf(props, "backend");
  const picks = useRunPicks();
  return (
    <>
      <CompareSelected picks={picks} />
      <RunListTable<RunOf["backend"]>
        label="Backend runs"
        columns={backendColumns(href)}
        rowHref={href}
        picks={picks}
        {...table}
      />
    </>
  );
});

export const LoadRunList = memo(function LoadRunList(props: RunListProps) {
  const table = useTableProps("load", props);
  const catalog = useCatalog();
  const href = hrefOf(props, "load");
  return (
    <RunListTable<RunOf["load"]>
      label="Load runs"
      columns={loadColumns(href, catalog.data?.regionLabels)}
      rowHref={href}
      {...table}
    />
  );
});
