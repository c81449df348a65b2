import Box from "@mui/material/Box";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { Outlet } from "react-router";
import { HeaderActions } from "./HeaderActions";
import { useRouteHandle } from "./route-handle";

/**
 * A page without the sidebar chrome: the print view, and the whole app on a data-harmonization
 * host, where that one screen is all there is. There (`account`) the title carries the header's
 * Sign in, or the greeting with Profile and Sign out: Run Report needs a signed-in user, and
 * the site has no other page to sign in from.
 */
export function BareLayout({ account = false }: { account?: boolean }) {
  const title = useRouteHandle()?.title ?? "Assay";
  return (
    <Box component="main" sx={{ p: 3 }}>
      <title>{`${title} · Assay`}</title>
      <Stack
        direction="row"
        // As tall as the signed-in avatar button, so signing in does not move the page down.
        sx={{ alignItems: "center", justifyContent: "space-between", gap: 2, mb: 2, minHeight: 40 }}
      >
        <Typography variant="h1">{title}</Typography>
        {account && <HeaderActions />}
      </Stack>
      <Outlet />
    </Box>
  );
}
