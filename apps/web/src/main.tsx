import { screenCodeIn } from "./preload-screen";
import { StrictMode } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { createBrowserRouter, matchPath } from "react-router";
import { RouterProvider } from "react-router/dom";
import { createQueryClient } from "./api/query-client";
import { readAppMode } from "./app-mode";
import { AppProviders } from "./AppProviders";
import { firstScreenReads, keepServedAnswers } from "./first-screen-read";
import { startOpeningRead } from "./features/runs/view/opening-read";
import { createRoutes } from "./routes";
import { SCREEN_CODE } from "./screen-code";

const container = document.getElementById("root");
if (!container) throw new Error("index.html has no #root element to render into");

const mode = readAppMode();
const router = createBrowserRouter(createRoutes(mode));
const queryClient = createQueryClient();
// A data-harmonization host shows that screen on every path, a run's dialog on none.
const reports = mode === "full" ? matchPath(SCREEN_CODE.runs.path, location.pathname) : null;
// What the server read to render the first screen into #root (first-screen.tsx), if it did.
const reads = reports && firstScreenReads(reports.params, location.search);
const served = reads ? keepServedAnswers(queryClient, reads) : false;
if (reports) startOpeningRead(queryClient, reports.params, location.search, served);

/** How long the first render waits for the screen's code (a slow network shows the layout). */
const SCREEN_CODE_WAIT_MS = 500;

const app = (
  <StrictMode>
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>
);

if (served) {
  // The server's HTML is on screen already: the app takes it over once the screen's code is in
  // (the markup it renders then is the server's, node for node), however long that takes.
  void screenCodeIn().then(() => hydrateRoot(container, app));
} else {
  void screenCodeIn(SCREEN_CODE_WAIT_MS).then(() => createRoot(container).render(app));
}
