import { screenCodeIn } from "./preload-screen";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createBrowserRouter, matchPath } from "react-router";
import { RouterProvider } from "react-router/dom";
import { createQueryClient } from "./api/query-client";
import { readAppMode } from "./app-mode";
import { AppProviders } from "./AppProviders";
import { startOpeningRead } from "./features/runs/view/opening-read";
import { createRoutes } from "./routes";
import { SCREEN_CODE } from "./screen-code";

const container = document.getElementById("root");
if (!container) throw new Error("index.html has no #root element to render into");

const mode = readAppMode();
const router = createBrowserRouter(createRoutes(mode));
const queryClient = createQueryClient();
// A data-harmonization host shows that screen on every path, a run's dialog on none.
const reports = matchPath(SCREEN_CODE.runs.path, location.pathname);
if (mode === "full" && reports) startOpeningRead(queryClient, reports.params, location.search);

/** How long the first render waits for the screen's code (a slow network shows the layout). */
const SCREEN_CODE_WAIT_MS = 500;

void screenCodeIn(SCREEN_CODE_WAIT_MS).then(() =>
  createRoot(container).render(
    <StrictMode>
      <AppProviders queryClient={queryClient}>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  ),
);
