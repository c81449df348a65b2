import { useMemo } from "react";
import { BackendResultsDialog } from "./backend/BackendResultsDialog";
import { TestDetailDialog } from "./detail/TestDetailDialog";
import { LoadRunDialog } from "./load/LoadRunDialog";
import { DEFAULT_FILTERS, type ReportState, type ResultFilters } from "./report-url";
import { FiltersContext } from "./results/filters-context";
import { FrontendResultsDialog } from "./results/FrontendResultsDialog";
import { useStableCallback } from "./use-stable-callback";

/**
 * The dialog the URL names, on top of the run list: the Frontend results (and a test's detail),
 * the Backend results (?be=1) or a load run (?load=1). Each closes back to the list's URL.
 */
export function RunDialogs({
  state,
  go,
}: {
  state: ReportState;
  go: (next: ReportState, replace?: boolean) => void;
}) {
  const { dialog } = state;
  const close = useStableCallback(() => go({ ...state, dialog: null, filters: DEFAULT_FILTERS }));
  // Filters replace the URL: Back leaves the run instead of undoing each switch.
  const onFilters = useStableCallback((filters: ResultFilters) => go({ ...state, filters }, true));
  const openTest = useStableCallback((testKey: string | null) => {
    if (dialog?.kind === "frontend") go({ ...state, dialog: { ...dialog, testKey } });
  });
  const closeTest = useStableCallback(() => openTest(null));
  const filters = useMemo(
    () => ({ filters: state.filters, onFilters }),
    [state.filters, onFilters],
  );

  if (!dialog) return null;
  if (dialog.kind === "backend") {
    return <BackendResultsDialog runKey={dialog.key} open onClose={close} />;
  }
  if (dialog.kind === "load") return <LoadRunDialog runKey={dialog.key} open onClose={close} />;
  return (
    <FiltersContext value={filters}>
      <FrontendResultsDialog runKey={dialog.key} onOpenTest={openTest} onClose={close} />
      {dialog.testKey && (
        <TestDetailDialog
          runKey={dialog.key}
          testKey={dialog.testKey}
          onClose={closeTest}
          onOpenAttempt={openTest}
        />
      )}
    </FiltersContext>
  );
}
