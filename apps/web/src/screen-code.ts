/** A screen's code: fetched once, and once in, at hand without waiting (`module`). */
export interface ScreenLoader<M> {
  (): Promise<M>;
  module?: M;
}

function loader<M>(load: () => Promise<M>): ScreenLoader<M> {
  let loading: Promise<M> | undefined;
  const screen: ScreenLoader<M> = () =>
    (loading ??= load().then(
      (module) => (screen.module = module),
      (error: unknown) => {
        // A chunk that failed to arrive (a deploy, the network) is fetched again next time.
        loading = undefined;
        throw error;
      },
    ));
  return screen;
}

/**
 * Where each screen is, and its code: a chunk of its own, fetched when the screen is first
 * opened. Apart from the route table (routes.tsx: labels, titles, icons, layouts) so that the
 * page's first script (preload-screen.ts) can start fetching the screen's code alongside the
 * app's, without loading the app first.
 */
export const SCREEN_CODE = {
  dashboard: {
    path: "/dashboard",
    load: loader(() => import("./features/dashboard/DashboardPage")),
  },
  builds: { path: "/builds", load: loader(() => import("./features/builds/BuildsPage")) },
  runs: {
    path: "/test_runs/:key?/:test_key?",
    load: loader(() => import("./features/runs/TestReportsPage")),
  },
  traceability: {
    path: "/traceability-matrix",
    load: loader(() => import("./features/traceability/TraceabilityMatrixPage")),
  },
  "top-fails": {
    path: "/top_fails",
    load: loader(() => import("./features/top-fails/TopFailsPage")),
  },
  failures: {
    path: "/failures/:id?",
    load: loader(() => import("./features/triage/FailuresPage")),
  },
  flaky: {
    path: "/flaky/:id?",
    load: loader(() => import("./features/flaky/FlakyTestsPage")),
  },
  history: {
    path: "/history/:id?",
    load: loader(() => import("./features/history/TestHistoryPage")),
  },
  aliases: {
    path: "/renamed-tests",
    load: loader(() => import("./features/aliases/RenamedTestsPage")),
  },
  tags: { path: "/dtags", load: loader(() => import("./features/tags/DynamicTagsPage")) },
  harmonization: {
    path: "/data",
    load: loader(() => import("./features/harmonization/DataHarmonizationPage")),
  },
  settings: {
    path: "/settings",
    load: loader(() => import("./features/settings/DailyRunSchedulerPage")),
  },
  releases: {
    path: "/releases",
    load: loader(() => import("./features/releases/NoraReleasesPage")),
  },
  print: {
    path: "/print/:key?/:test_key?",
    load: loader(() => import("./features/print/PrintPage")),
  },
  "traceability-print": {
    path: "/traceability-matrix/print",
    load: loader(() => import("./features/traceability/TraceabilityPrintPage")),
  },
  diff: { path: "/diff/:a/:b", load: loader(() => import("./features/diff/RunDiffPage")) },
  trends: {
    path: "/load-trends/:key",
    load: loader(() => import("./features/trends/LoadTrendPage")),
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
