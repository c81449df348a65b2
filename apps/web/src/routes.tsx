import type { AppMode } from "@assay/core";
import AccountTreeOutlined from "@mui/icons-material/AccountTreeOutlined";
import AssessmentOutlined from "@mui/icons-material/AssessmentOutlined";
import BugReportOutlined from "@mui/icons-material/BugReportOutlined";
import BuildOutlined from "@mui/icons-material/BuildOutlined";
import CompareArrows from "@mui/icons-material/CompareArrows";
import DashboardOutlined from "@mui/icons-material/DashboardOutlined";
import ErrorOutline from "@mui/icons-material/ErrorOutline";
import History from "@mui/icons-material/History";
import ShuffleOutlined from "@mui/icons-material/ShuffleOutlined";
import DriveFileRenameOutline from "@mui/icons-material/DriveFileRenameOutline";
import LocalOfferOutlined from "@mui/icons-material/LocalOfferOutlined";
import NewReleasesOutlined from "@mui/icons-material/NewReleasesOutlined";
import PrintOutlined from "@mui/icons-material/PrintOutlined";
import SettingsOutlined from "@mui/icons-material/SettingsOutlined";
import ShowChart from "@mui/icons-material/ShowChart";
import type SvgIcon from "@mui/material/SvgIcon";
import { lazy, Suspense, useState, type ComponentType } from "react";
import { generatePath, Navigate, type RouteObject } from "react-router";
import { RootRedirect } from "./components/RootRedirect";
import { BareLayout } from "./components/BareLayout";
import { Layout } from "./components/Layout";
import { NotFoundPage } from "./components/NotFoundPage";
import { PageLoading } from "./components/PageLoading";
import type { RouteHandle } from "./components/route-handle";
import { RouteError } from "./components/RouteError";
import type { NavEntry } from "./components/Sidebar";
import { SCREEN_CODE, type ScreenLoader } from "./screen-code";

/**
 * Each screen's code is its own chunk, fetched when the screen is first opened. When it is in
 * already (preload-screen.ts fetched it with the app's), the screen renders at once: through
 * React.lazy it would suspend first, and React keeps a Suspense fallback on screen for at least
 * 300 ms once shown (on a cold open of a run's dialog, 100 ms of nothing: docs/performance.md).
 * Rendered at once, it has no Suspense boundary either: a page whose first screen the server
 * rendered (first-screen.tsx) is then taken over in one pass, with no gap in which the layout's
 * reads could answer before the screen's markup is matched against the server's.
 */
function lazyPage<K extends string>(
  load: ScreenLoader<Record<K, ComponentType>>,
  name: K,
): ComponentType {
  const Lazy = lazy<ComponentType>(async () => ({ default: (await load())[name] }));
  return function Page() {
    // Chosen once per mount: a component that changed type would be mounted again.
    const [Loaded] = useState<{ Screen: ComponentType } | undefined>(() => {
      const Screen = load.module?.[name];
      return Screen && { Screen };
    });
    if (Loaded) return <Loaded.Screen />;
    return (
      <Suspense fallback={<PageLoading />}>
        <Lazy />
      </Suspense>
    );
  };
}

export interface RedirectEntry {
  path: string;
  redirect: string;
}

export interface ScreenEntry {
  id: string;
  path: string;
  /** Name in the sidebar. */
  label: string;
  /** Title in the header. */
  title: string;
  icon: typeof SvgIcon;
  Page: ComponentType;
  /** Reachable by its URL only: not listed in the sidebar. */
  hidden?: boolean;
  /** Rendered on its own, without the sidebar layout. */
  bare?: boolean;
}

export type RouteEntry = RedirectEntry | ScreenEntry;

/** The route table of spec section 2, in sidebar order. */
export const ROUTE_TABLE: readonly RouteEntry[] = [
  { path: "/", redirect: "/dashboard" },
  {
    id: "dashboard",
    path: SCREEN_CODE["dashboard"].path,
    label: "Dashboard",
    title: "Dashboard",
    icon: DashboardOutlined,
    Page: lazyPage(SCREEN_CODE["dashboard"].load, "DashboardPage"),
  },
  {
    id: "builds",
    path: SCREEN_CODE["builds"].path,
    label: "Builds",
    title: "Builds",
    icon: BuildOutlined,
    Page: lazyPage(SCREEN_CODE["builds"].load, "BuildsPage"),
  },
  {
    id: "runs",
    path: SCREEN_CODE["runs"].path,
    label: "Test Reports",
    title: "Test Reports",
    icon: AssessmentOutlined,
    Page: lazyPage(SCREEN_CODE["runs"].load, "TestReportsPage"),
  },
  {
    id: "traceability",
    path: SCREEN_CODE["traceability"].path,
    label: "Traceability Matrix",
    title: "NextGen UI Automation Coverage",
    icon: AccountTreeOutlined,
    Page: lazyPage(SCREEN_CODE["traceability"].load, "TraceabilityMatrixPage"),
  },
  {
    id: "top-fails",
    path: SCREEN_CODE["top-fails"].path,
    label: "Top Fails",
    title: "Top Failed Tests in the last 2 months",
    icon: ErrorOutline,
    Page: lazyPage(SCREEN_CODE["top-fails"].load, "TopFailsPage"),
  },
  {
    id: "failures",
    path: SCREEN_CODE["failures"].path,
    label: "Failures",
    title: "Failures by cause",
    icon: BugReportOutlined,
    Page: lazyPage(SCREEN_CODE["failures"].load, "FailuresPage"),
  },
  {
    id: "flaky",
    path: SCREEN_CODE["flaky"].path,
    label: "Flaky Tests",
    title: "Flaky Tests",
    icon: ShuffleOutlined,
    Page: lazyPage(SCREEN_CODE["flaky"].load, "FlakyTestsPage"),
  },
  {
    id: "history",
    path: SCREEN_CODE["history"].path,
    label: "Test History",
    title: "Test History",
    icon: History,
    Page: lazyPage(SCREEN_CODE["history"].load, "TestHistoryPage"),
  },
  {
    id: "aliases",
    path: SCREEN_CODE["aliases"].path,
    label: "Renamed Tests",
    title: "Renamed Tests",
    icon: DriveFileRenameOutline,
    Page: lazyPage(SCREEN_CODE["aliases"].load, "RenamedTestsPage"),
  },
  {
    id: "tags",
    path: SCREEN_CODE["tags"].path,
    label: "Dynamic Tags",
    title: "Dynamic Tags",
    icon: LocalOfferOutlined,
    Page: lazyPage(SCREEN_CODE["tags"].load, "DynamicTagsPage"),
  },
  {
    id: "harmonization",
    path: SCREEN_CODE["harmonization"].path,
    label: "Data Harmonization",
    title: "Data Harmonization",
    icon: CompareArrows,
    Page: lazyPage(SCREEN_CODE["harmonization"].load, "DataHarmonizationPage"),
  },
  {
    id: "settings",
    path: SCREEN_CODE["settings"].path,
    label: "Setting",
    title: "Daily Run Scheduler",
    icon: SettingsOutlined,
    Page: lazyPage(SCREEN_CODE["settings"].load, "DailyRunSchedulerPage"),
  },
  {
    // Spec §2: a screen, not in the route list: opened from the Dashboard.
    id: "releases",
    path: SCREEN_CODE["releases"].path,
    label: "Nora Releases",
    title: "Nora Releases",
    icon: NewReleasesOutlined,
    Page: lazyPage(SCREEN_CODE["releases"].load, "NoraReleasesPage"),
    hidden: true,
  },
  {
    // React Router matches whole paths, which is the spec's "exact match": /print/a/b/c is unknown.
    id: "print",
    path: SCREEN_CODE["print"].path,
    label: "Print",
    title: "Test Detail",
    icon: PrintOutlined,
    Page: lazyPage(SCREEN_CODE["print"].load, "PrintPage"),
    hidden: true,
    bare: true,
  },
  {
    // Reached from the matrix's 'Printable report'; bare, for the browser's Print to PDF.
    id: "traceability-print",
    path: SCREEN_CODE["traceability-print"].path,
    label: "Traceability Matrix Report",
    title: "Traceability Matrix Report",
    icon: PrintOutlined,
    Page: lazyPage(SCREEN_CODE["traceability-print"].load, "TraceabilityPrintPage"),
    hidden: true,
    bare: true,
  },
  {
    // Issue 35: reached from a run dialog's Compare with previous, or two runs ticked in a list.
    id: "diff",
    path: SCREEN_CODE["diff"].path,
    label: "Compare runs",
    title: "Compare runs",
    icon: CompareArrows,
    Page: lazyPage(SCREEN_CODE["diff"].load, "RunDiffPage"),
    hidden: true,
  },
  {
    // Issue 35: reached from a load run's dialog (Trend over time).
    id: "trends",
    path: SCREEN_CODE["trends"].path,
    label: "Load trend",
    title: "Load trend",
    icon: ShowChart,
    Page: lazyPage(SCREEN_CODE["trends"].load, "LoadTrendPage"),
    hidden: true,
  },
];

const NOT_FOUND_TITLE = "Page not found";

function isRedirect(entry: RouteEntry): entry is RedirectEntry {
  return "redirect" in entry;
}

function isScreen(entry: RouteEntry): entry is ScreenEntry {
  return !isRedirect(entry);
}

const SCREENS = ROUTE_TABLE.filter(isScreen);

/** The sidebar: every screen of the table except redirects and hidden ones. */
export const NAV_ENTRIES: readonly NavEntry[] = SCREENS.filter((screen) => !screen.hidden).map(
  (screen) => ({
    id: screen.id,
    label: screen.label,
    icon: screen.icon,
    // Optional parameters are left out: the sidebar opens a screen at its root.
    to: generatePath(screen.path),
  }),
);

function screenRoute(screen: ScreenEntry, path = screen.path): RouteObject {
  const handle: RouteHandle = { title: screen.title, navId: screen.id };
  return {
    id: screen.id,
    path,
    handle,
    element: <screen.Page />,
  };
}

/** Full mode: the route table inside the sidebar layout, bare screens outside it. */
function fullRoutes(): RouteObject[] {
  const redirects = ROUTE_TABLE.filter(isRedirect);
  return [
    ...redirects.map((entry) => ({
      path: entry.path,
      element:
        entry.path === "/" ? (
          <RootRedirect to={entry.redirect} />
        ) : (
          <Navigate to={entry.redirect} replace />
        ),
    })),
    { element: <BareLayout />, children: SCREENS.filter((s) => s.bare).map((s) => screenRoute(s)) },
    {
      element: <Layout nav={NAV_ENTRIES} />,
      children: [
        ...SCREENS.filter((s) => !s.bare).map((s) => screenRoute(s)),
        {
          path: "*",
          handle: { title: NOT_FOUND_TITLE } satisfies RouteHandle,
          element: <NotFoundPage />,
        },
      ],
    },
  ];
}

/** Data-harmonization host (spec section 1): that one screen on every path, nothing else. */
function harmonizationRoutes(): RouteObject[] {
  const screen = SCREENS.find((s) => s.id === "harmonization");
  if (!screen) throw new Error("The route table has no Data Harmonization screen");
  return [{ element: <BareLayout account />, children: [screenRoute(screen, "*")] }];
}

/** The router's routes for the mode the server chose; see app-mode.ts. */
export function createRoutes(mode: AppMode): RouteObject[] {
  const routes = mode === "data-harmonization" ? harmonizationRoutes() : fullRoutes();
  return [{ errorElement: <RouteError />, children: routes }];
}
