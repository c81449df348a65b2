import Box from "@mui/material/Box";
import { Outlet } from "react-router";
import { AppFooter } from "./AppFooter";
import { AppHeader } from "./AppHeader";
import { DemoBanner } from "./DemoBanner";
import { useRouteHandle } from "./route-handle";
import { Sidebar, type NavEntry } from "./Sidebar";

/** The main app's chrome (spec "Page chrome"): sidebar, header with the title, page, footer. */
export function Layout({ nav }: { nav: readonly NavEntry[] }) {
  const handle = useRouteHandle();
  const title = handle?.title ?? "Assay";
  return (
    <Box sx={{ display: "flex", minHeight: "100vh" }}>
      <title>{`${title} · Assay`}</title>
      <Sidebar entries={nav} activeId={handle?.navId} />
      <Box sx={{ display: "flex", flexDirection: "column", flexGrow: 1, minWidth: 0 }}>
        <AppHeader title={title} />
        <DemoBanner />
        <Box component="main" sx={{ flexGrow: 1, p: 2 }}>
          <Outlet />
        </Box>
        <AppFooter />
      </Box>
    </Box>
  );
}
