import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import { isRouteErrorResponse, useRouteError } from "react-router";

function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`;
  if (error instanceof Error) return error.message;
  return String(error);
}

/**
 * Shown when a screen throws or its code cannot be fetched (typically after a new version was
 * deployed under an open tab): a reload picks up the new files.
 */
export function RouteError() {
  const error = useRouteError();
  return (
    <Box role="alert" sx={{ p: 3 }}>
      <Typography variant="h1" sx={{ mb: 1 }}>
        This page failed to load
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {describe(error)}
      </Typography>
      <Button variant="outlined" onClick={() => window.location.reload()}>
        Reload
      </Button>
    </Box>
  );
}
