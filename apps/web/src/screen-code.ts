/**
 * Where each screen is, and its code: a chunk of its own, fetched when the screen is first
 * opened. Apart from the route table (routes.tsx: labels, titles, icons, layouts) so that the
 * page's first script (preload-screen.ts) can start fetching the screen's code alongside the
 * app's, without loading the app first.
 */
export const SCREEN_CODE = {
  dashboard: { path: "/dashboard", load: () => import("./features/dashboard/DashboardPage") },
  builds: { path: "/builds", load: () => import("./features/builds/BuildsPage") },
  runs: {
    path: "/test_runs/:key?/:test_key?",
    load: () => import("./features/runs/TestReportsPage"),
  },
  traceability: {
    path: "/traceability-matrix",
    load: () => import("./features/traceability/TraceabilityMatrixPage"),
  },
  "top-fails": { path: "/top_fails", load: () => import("./features/top-fails/TopFailsPage") },
  history: { path: "/history/:id?", load: () => import("./features/history/TestHistoryPage") },
  tags: { path: "/dtags", load: () => import("./features/tags/DynamicTagsPage") },
  harmonization: {
    path: "/data",
    load: () => import("./features/harmonization/DataHarmonizationPage"),
  },
  settings: {
    path: "/settings",
    load: () => import("./features/settings/DailyRunSchedulerPage"),
  },
  releases: { path: "/releases", load: () => import("./features/releases/NoraReleasesPage") },
  print: { path: "/print/:key?/:test_key?", load: () => import("./features/print/PrintPage") },
  "traceability-print": {
    path: "/traceability-matrix/print",
    load: () => import("./features/traceability/TraceabilityPrintPage"),
  },
} as const;

export type ScreenId = keyof typeof SCREEN_CODE;

const segments = (path: string) => path.split("/").filter((part) => part !== "");

/** Whether `pathname` matches a route path of static segments and (optional) parameters. */
function matches(path: string, parts: readonly string[]): boolean {
  const pattern = segments(path);
  if (parts.length > pattern.length) return false;
  return pattern.every((segment, i) => {
    if (!segment.startsWith(":")) return segment === parts[i];
    return segment.endsWith("?") || parts[i] !== undefined;
  });
}

/**
 * The screen the full layout shows at `pathname`, or null (a redirect, an unknown path): the
 * same answer as the router's for these paths (screen-code.test.ts), without loading it.
 */
export function screenAt(pathname: string): ScreenId | null {
  const parts = segments(pathname);
  const ids = Object.keys(SCREEN_CODE) as ScreenId[];
  return ids.find((id) => matches(SCREEN_CODE[id].path, parts)) ?? null;
}
