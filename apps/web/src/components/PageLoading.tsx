import LinearProgress from "@mui/material/LinearProgress";

/** Shown while a screen's code is fetched, so the page is never blank. */
export function PageLoading() {
  return <LinearProgress aria-label="Loading page" />;
}
