import type { QueryClient } from "@tanstack/react-query";
import { readReportState } from "../report-url";
import { backendViewFilters, prefetchRunView } from "./use-run-view";

let opening: Promise<void> | null = null;

/**
 * A page opened cold at a run's results dialog (a shared link, a bookmark, the morning's e-mail)
 * asks for the dialog's first page as the app starts, before the screen's code is loaded and
 * rendered: the answer is in by the time the dialog mounts (docs/performance.md, "Large runs").
 * Same query key as the dialog's (use-run-view.ts), so the dialog finds it in the cache.
 * `params` are Test Reports' route parameters (main.tsx matches the URL), `search` its query.
 */
export function startOpeningRead(
  queryClient: QueryClient,
  params: { key?: string; test_key?: string },
  search: string,
): void {
  const { dialog, filters } = readReportState(params, new URLSearchParams(search));
  let read: Promise<void>;
  if (dialog?.kind === "frontend") {
    read = prefetchRunView(queryClient, "frontend", dialog.key, { ...filters, search: "" });
  } else if (dialog?.kind === "backend") {
    const filters = backendViewFilters(false, "", dialog.testKey ?? undefined);
    read = prefetchRunView(queryClient, "backend", dialog.key, filters);
  } else return;
  opening = read;
}

/** Whether the page was opened cold at a run's dialog and its list has not been shown yet. */
export function isOpeningRead(): boolean {
  return opening !== null;
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
