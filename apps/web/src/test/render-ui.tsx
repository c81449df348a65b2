import { QueryClient } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import type { ReactElement } from "react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { AppProviders } from "../AppProviders";

/**
 * Renders one component with the app's providers, under a router at `path` whose one route is
 * `route` (so that the component can read its parameters and search params).
 */
export function renderUi(
  ui: ReactElement,
  { path = "/", route = "*" }: { path?: string; route?: string } = {},
) {
  const router = createMemoryRouter([{ path: route, element: ui }], { initialEntries: [path] });
  // No retries: a failing answer should show its error at once, not after the back-off.
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router, queryClient };
}
