import type { AppMode } from "@assay/core";
import { QueryClient } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { AppProviders } from "../AppProviders";
import { createRoutes } from "../routes";

/** Renders the whole app, with the real route table, at `path`. */
export function renderApp(path: string, { mode = "full" }: { mode?: AppMode } = {}) {
  const router = createMemoryRouter(createRoutes(mode), { initialEntries: [path] });
  // No retries: a failing answer should show its error at once, not after the back-off.
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router };
}
