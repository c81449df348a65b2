import type { AppMode } from "@assay/core";
import { QueryClient } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { AppProviders } from "../AppProviders";
import { createRoutes } from "../routes";

/** No retries: a failing answer should show its error at once, not after the back-off. */
export const testQueryClient = () =>
  new QueryClient({ defaultOptions: { queries: { retry: false } } });

/** Renders the whole app, with the real route table, at `path`. */
export function renderApp(
  path: string,
  {
    mode = "full",
    queryClient = testQueryClient(),
  }: { mode?: AppMode; queryClient?: QueryClient } = {},
) {
  const router = createMemoryRouter(createRoutes(mode), { initialEntries: [path] });
  const view = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router };
}
