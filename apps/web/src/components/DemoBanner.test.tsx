import { QueryClient } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AppProviders } from "../AppProviders";
import { queryKeys } from "../api/query-keys";
import { DEMO_LOADING_POLL_MS } from "../api/use-instance";
import { buildCatalog } from "../test/catalog-factory";
import { errorResponse, jsonResponse, mockApi } from "../test/mock-api";
import { renderApp } from "../test/render-app";
import { DemoBanner } from "./DemoBanner";

const DEMO_TEXT =
  "Demo data: these runs were generated to show Assay. Start with ASSAY_DEMO=0 and an empty data folder for a clean install.";

function withInstance(instance: () => Response) {
  return mockApi({
    "/v1/catalog": () => jsonResponse(buildCatalog()),
    "/v1/instance": instance,
  });
}

/** The banner alone, with a client the test can ask whether the answer has arrived. */
async function renderSettled(
  queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } }),
) {
  render(
    <AppProviders queryClient={queryClient}>
      <DemoBanner />
    </AppProviders>,
  );
  await waitFor(() =>
    expect(queryClient.getQueryState(queryKeys.instance)?.status).toMatch(/success|error/),
  );
}

afterEach(() => {
  vi.useRealTimers();
});

describe("demo banner", () => {
  it("says in the app shell that the runs are demo data", async () => {
    withInstance(() => jsonResponse({ demo: true, demo_loaded_at: "2026-03-10T15:00:00.000Z" }));
    renderApp("/dashboard");

    const banner = await screen.findByRole("note", { name: "Demo data" });
    expect(banner).toHaveTextContent(DEMO_TEXT);
    expect(within(banner).getByText("ASSAY_DEMO=0").tagName).toBe("CODE");
    // Between the header and the page, on every screen of the layout.
    expect(screen.getByRole("banner").nextElementSibling).toBe(banner);
  });

  it("says so while the demo is still loading, too", async () => {
    withInstance(() => jsonResponse({ demo: true, demo_loaded_at: null }));
    renderApp("/builds");

    expect(await screen.findByRole("note", { name: "Demo data" })).toBeVisible();
  });

  it("says the demo is still loading, asks until it has loaded, then reads every screen again", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let loadedAt: string | null = null;
    const fetchMock = withInstance(() => jsonResponse({ demo: true, demo_loaded_at: loadedAt }));
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    // A screen's answer read while the demo was half loaded.
    queryClient.setQueryData(["runs", "frontend"], { total: 12 });
    await renderSettled(queryClient);
    const banner = screen.getByRole("note", { name: "Demo data" });
    expect(banner).toHaveTextContent(
      "Still loading: the screens fill in over the next minutes and read everything again once it has loaded.",
    );
    const asked = () =>
      fetchMock.mock.calls.filter(([url]) => String(url).endsWith("/v1/instance")).length;
    expect(asked()).toBe(1);
    await vi.advanceTimersByTimeAsync(DEMO_LOADING_POLL_MS);
    await waitFor(() => expect(asked()).toBe(2));
    expect(queryClient.getQueryState(["runs", "frontend"])?.isInvalidated).toBe(false);

    loadedAt = "2026-03-10T15:00:00.000Z";
    await vi.advanceTimersByTimeAsync(DEMO_LOADING_POLL_MS);
    await waitFor(() => expect(banner).toHaveTextContent(DEMO_TEXT, { normalizeWhitespace: true }));
    expect(banner).not.toHaveTextContent("Still loading");
    expect(queryClient.getQueryState(["runs", "frontend"])?.isInvalidated).toBe(true);
    // Loaded: the app stops asking.
    await vi.advanceTimersByTimeAsync(DEMO_LOADING_POLL_MS * 3);
    expect(asked()).toBe(3);
  });

  it("shows nothing on an installation without demo data", async () => {
    withInstance(() => jsonResponse({ demo: false, demo_loaded_at: null }));
    await renderSettled();

    expect(screen.queryByRole("note")).not.toBeInTheDocument();
  });

  it("shows nothing, and no error, when the server cannot say", async () => {
    withInstance(() => errorResponse(500, "internal_error", "Instance could not be read"));
    await renderSettled();

    expect(screen.queryByRole("note")).not.toBeInTheDocument();
    expect(screen.queryByText(/could not be read/)).not.toBeInTheDocument();
  });
});
