import type { QueryClient } from "@tanstack/react-query";
import { readReportState } from "../report-url";
import {
  backendViewFilters,
  firstPageRequest,
  prefetchRunView,
  type ViewFilters,
} from "./use-run-view";

let opening: Promise<void> | null = null;

/** Test Reports' route parameters (main.tsx and the server match the URL). */
export interface ReportParams {
  key?: string;
  test_key?: string;
}

/** The run view a page opened at these parameters and query shows first, or null (no dialog). */
function openingView(params: ReportParams, search: string) {
  const { dialog, filters } = readReportState(params, new URLSearchParams(search));
  if (dialog?.kind === "frontend") {
    const opened: ViewFilters = { ...filters, search: "" };
    return { family: "frontend" as const, key: dialog.key, filters: opened };
  }
  if (dialog?.kind === "backend") {
    const opened = backendViewFilters(new Set(), "", dialog.testKey ?? undefined);
    return { family: "backend" as const, key: dialog.key, filters: opened };
  }
  return null;
}

/**
 * The request of the dialog's first page that a page opened at these parameters shows, or null:
 * the server reads it to render the page's first screen (first-screen-read.ts).
 */
export function openingRequest(params: ReportParams, search: string) {
  const view = openingView(params, search);
  return view && { ...firstPageRequest(view.family, view.key, view.filters), family: view.family };
}

/**
 * A page opened cold at a run's results dialog (a shared link, a bookmark, the morning's e-mail)
 * has the dialog's first page before the screen's code is loaded and rendered: the server read
 * it to render the first screen (`served`: its answer is in the cache already,
 * first-screen-read.ts), or else a request starts as the app starts (docs/performance.md, "Large
 * runs"). Same query key as the dialog's (use-run-view.ts), so the dialog finds it in the cache.
 */
export function startOpeningRead(
  queryClient: QueryClient,
  params: ReportParams,
  search: string,
  served = false,
): void {
  const view = openingView(params, search);
  if (!view) return;
  opening = served
    ? Promise.resolve()
    : prefetchRunView(queryClient, view.family, view.key, view.filters);
}

/** Whether the page was opened cold at a run's dialog and its list has not been shown yet. */
export function isOpeningRead(): boolean {
  return opening !== null;
}

/**
 * Renders as a page opened at a run's dialog does, with its first page in the cache: the server
 * rendering a page's first screen (first-screen.tsx), one at a time.
 */
export function renderingOpening<T>(render: () => T): T {
  opening = Promise.resolve();
  try {
    return render();
  } finally {
    opening = null;
  }
}

const nextPaint = () =>
  new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve)));

/**
 * Settles once the opening read is answered and the frame after it painted (prefetchQuery never
 * rejects). Called by the run list behind the dialog as the page mounts: it waits, so that the
 * list's table is not rendered ahead of the dialog's first rows. The next mount does not wait.
 */
export function openingReadPainted(): Promise<void> {
  return (opening ?? Promise.resolve()).then(nextPaint).finally(() => {
    opening = null;
  });
}
