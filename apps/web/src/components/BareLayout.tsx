import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { Outlet } from "react-router";
import { useRouteHandle } from "./route-handle";

/**
 * A page without the sidebar chrome: the print view, and the whole app on a data-harmonization
 * host, where that one screen is all there is.
 */
export function BareLayout() {
  const title = useRouteHandle()?.title ?? "Assay";
  return (
    <Box component="main" sx={{ p: 3 }}>
      <title>{`${title} · Assay`}</title>
      <Typography variant="h1" sx={{ mb: 2 }}>
        {title}
      </Typography>
      <Outlet />
    </Box>
  );
}
