import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildCatalog } from "../../test/catalog-factory";
import {
  buildFailedResult,
  buildFrontendRun,
  buildRunDetail,
  buildRunPage,
} from "../../test/frontend-run-fixtures";
import { stubClientHeight } from "../../test/layout-stub";
import { errorResponse, jsonResponse, mockApi, requestedPaths } from "../../test/mock-api";
import { frontendViewHandler } from "../../test/run-view-fake";
import { renderApp } from "../../test/render-app";
import { buildBackendRun, buildLoadRun, buildTestDetail } from "../../test/run-fixtures";

// MUI's dialogs and tables are slow to render in jsdom; these tests wait for real renders.
vi.setConfig({ testTimeout: 30_000 });

const catalog = buildCatalog();
const never = () => new Promise<Response>(() => undefined);

const runs = [
  buildFrontendRun({
    test_run_key: "ui-2",
    test_run_name: "Nightly 2",
    total: 12,
    passed: 7,
    failed: 2,
    skipped: 1,
    unstable: 2,
  }),
  buildFrontendRun({ test_run_key: "ui-1", test_run_name: "Nightly 1", is_next_gen: false }),
];

type Handlers = Parameters<typeof mockApi>[0];

function mock(handlers: Handlers) {
  return mockApi({ "/v1/catalog": () => jsonResponse(catalog), ...handlers });
}

const table = (name: string) => screen.getByRole("table", { name });
const bodyRows = (name: string) => within(table(name)).getAllByRole("row").slice(1);

let restoreLayout: () => void;
beforeAll(async () => {
  restoreLayout = stubClientHeight(800);
  // The route loads the page lazily; loading it once here keeps the first test within its wait.
  await import("./TestReportsPage");
}, 60_000);
afterAll(() => restoreLayout());

describe("Test Reports run lists", () => {
  it("shows skeleton rows while the list loads", async () => {
    mock({ "/v1/test-runs": never });
    renderApp("/test_runs");
    const runsTable = await screen.findByRole(
      "table",
      { name: "Frontend runs" },
      { timeout: 20_000 },
    );
    expect(runsTable).toHaveAttribute("aria-busy", "true");
    // Skeleton rows are hidden from assistive technology; the busy table says it loads. Ten
    // columns and the compare tick box.
    expect(runsTable.querySelectorAll("tbody tr .MuiSkeleton-root")).toHaveLength(15 * 11);
  });

  it("says the spec's message when the list fails", async () => {
    mock({ "/v1/test-runs": () => errorResponse(500, "internal", "boom") });
    renderApp("/test_runs");
    expect(
      await screen.findByText("Error retrieving run list. Please try again and refresh."),
    ).toBeInTheDocument();
  });

  it("says how to upload when there are no runs", async () => {
    mock({ "/v1/test-runs": () => jsonResponse(buildRunPage([])) });
    renderApp("/test_runs");
    const empty = await screen.findByText(/No runs yet: upload a report with/);
    expect(within(empty).getByText("npx assay upload").tagName).toBe("CODE");
  });

  it("lists the runs, newest first as the server sends them, with the spec's counts", async () => {
    const fetchMock = mock({ "/v1/test-runs": () => jsonResponse(buildRunPage(runs)) });
    renderApp("/test_runs");
    await screen.findByText("Nightly 2");
    const headers = within(table("Frontend runs")).getAllByRole("columnheader");
    // The first column ticks two runs to compare (issue 35's run diff).
    expect(headers[0]).toHaveAccessibleName("Pick to compare");
    expect(headers.slice(1).map((h) => h.textContent)).toEqual([
      "Run",
      "Site / Platform",
      "Executor",
      "Total",
      "Passed",
      "Failed",
      "Skipped",
      "Unstable",
      "Duration",
      "Created (UTC)",
    ]);
    const [first, second] = bodyRows("Frontend runs");
    const cells = within(first!)
      .getAllByRole("cell")
      .map((c) => c.textContent);
    expect(cells.slice(2, 11)).toEqual([
      "dev1.nextgen.example.comNextGen",
      "daily-robot",
      "12",
      "7",
      "2",
      "1",
      "2",
      "1h 2m 3s",
      "05-01 08:00:00",
    ]);
    expect(within(second!).getByText("Legacy")).toBeInTheDocument();
    const url = new URL(String(fetchMock.mock.calls.at(-1)?.[0]), "http://x");
    expect(url.searchParams.get("page_size")).toBe("15");
    // Duration is the run's wall-clock time; the summed test time is named on hover.
    await userEvent.hover(within(first!).getByText("1h 2m 3s"));
    expect(await screen.findByRole("tooltip")).toHaveTextContent("Summed test time 8h 39m 36s");
    await userEvent.unhover(within(first!).getByText("1h 2m 3s"));
    await waitFor(() => expect(screen.queryByRole("tooltip")).not.toBeInTheDocument());
    // One line a row: a long site or key is cut to its cell and whole on hover.
    const site = within(first!).getByText("dev1.nextgen.example.com");
    expect(site).toHaveStyle({ whiteSpace: "nowrap", textOverflow: "ellipsis" });
    await userEvent.hover(site);
    expect(await screen.findByRole("tooltip")).toHaveTextContent("dev1.nextgen.example.com");
  });

  it("keeps the page and the page size in the URL", async () => {
    const fetchMock = mock({
      "/v1/test-runs": () => jsonResponse({ ...buildRunPage(runs, 40), page_size: 30 }),
    });
    const { router } = renderApp("/test_runs?size=30");
    await screen.findByText("Nightly 2");
    const lastQuery = () => new URL(String(fetchMock.mock.calls.at(-1)?.[0]), "http://x");
    expect(lastQuery().searchParams.get("page_size")).toBe("30");
    await userEvent.click(screen.getByRole("button", { name: "Go to next page" }));
    expect(router.state.location.search).toBe("?page=2&size=30");
    await waitFor(() => expect(lastQuery().searchParams.get("page")).toBe("2"));
    await userEvent.click(screen.getByRole("combobox", { name: /rows per page/i }));
    const options = screen.getAllByRole("option").map((o) => o.textContent);
    expect(options).toEqual(["10", "15", "20", "30", "100"]);
    await userEvent.click(screen.getByRole("option", { name: "15" }));
    expect(router.state.location.search).toBe("");
  });

  it("switches tabs through the URL and lists backend and load runs", async () => {
    mock({
      "/v1/test-runs": () => jsonResponse(buildRunPage(runs)),
      "/v1/api-test-runs": () => jsonResponse(buildRunPage([buildBackendRun({ pending: 4 })])),
      "/v1/load-test-runs": () => jsonResponse(buildRunPage([buildLoadRun()])),
    });
    const { router } = renderApp("/test_runs");
    await screen.findByText("Nightly 2");
    await userEvent.click(screen.getByRole("tab", { name: "Backend" }));
    expect(router.state.location.search).toBe("?tab=backend");
    expect(await screen.findByText("2026-05-01 06:00 API")).toBeInTheDocument();
    expect(within(bodyRows("Backend runs")[0]!).getByText("4")).toBeInTheDocument();
    // The run took 1m 30s on the clock; its tests' times add up to 9m.
    expect(within(bodyRows("Backend runs")[0]!).getByText("1m 30s")).toBeInTheDocument();

    await userEvent.click(screen.getByRole("tab", { name: "Load" }));
    const row = (await screen.findByText("Patient login 20 users")).closest("tr")!;
    expect(within(row).getByText("US (Oregon)")).toBeInTheDocument();
    expect(within(row).getByRole("link", { name: "Report" })).toHaveAttribute(
      "href",
      "/v1/objects/reports/2026/05/report.html",
    );
  });

  it("Refresh reloads only the active tab's list, bypassing the cache", async () => {
    const fetchMock = mock({
      "/v1/test-runs": () => jsonResponse(buildRunPage(runs)),
      "/v1/api-test-runs": () => jsonResponse(buildRunPage([buildBackendRun()])),
    });
    renderApp("/test_runs?tab=backend");
    await screen.findByText("2026-05-01 06:00 API");
    const before = fetchMock.mock.calls.length;
    await userEvent.click(screen.getByRole("button", { name: "Refresh" }));
    await waitFor(() => expect(fetchMock.mock.calls.length).toBe(before + 1));
    const last = String(fetchMock.mock.calls.at(-1)?.[0]);
    expect(last).toMatch(/^\/v1\/api-test-runs\?.*force=true/);
    expect(requestedPaths(fetchMock)).not.toContain("/v1/test-runs");
  });
});

describe("Test Reports deep links", () => {
  const failing = buildFailedResult({ test_id: 5, test_run_test_id: "login#0", title: "Login" });

  function mockRun() {
    return mock({
      "/v1/test-runs": () => jsonResponse(buildRunPage(runs)),
      "/v1/test-runs/ui-run-1/view": frontendViewHandler(buildRunDetail([failing]), {
        majorTags: [],
      }),
      "/v1/dtag": () => errorResponse(404, "not_found", "No route"),
      "/v1/test-detail/ui-run-1/login%230": () =>
        jsonResponse(buildTestDetail({ test_run_key: "ui-run-1", description: "Signs in." })),
      "/v1/api-test-run/api-run-1/view": never,
      "/v1/load-test-runs/load-1": never,
    });
  }

  it("/test_runs/{key} opens the run's Frontend results dialog; closing returns to /test_runs", async () => {
    mockRun();
    const { router } = renderApp("/test_runs/ui-run-1");
    const dialog = await screen.findByRole("dialog", { name: "ui-run-1" });
    expect(await within(dialog).findByRole("article", { name: /TC5 Login/ })).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole("button", { name: "Close" }));
    expect(router.state.location.pathname).toBe("/test_runs");
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
  });

  it("/test_runs/{key}/{test_key} also opens the test's detail; closing it keeps the run", async () => {
    mockRun();
    const { router } = renderApp("/test_runs/ui-run-1/login%230");
    expect(await screen.findByText("Signs in.")).toBeInTheDocument();
    expect(screen.getByRole("dialog", { name: /TC321/ })).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Close the test detail" }));
    expect(router.state.location.pathname).toBe("/test_runs/ui-run-1");
    expect(screen.getByRole("dialog", { name: "ui-run-1" })).toBeInTheDocument();
  });

  it("opening a run from the list and a test's Details give each state its own URL", async () => {
    mockRun();
    const { router } = renderApp("/test_runs");
    await screen.findByText("Nightly 2");
    await userEvent.click(bodyRows("Frontend runs")[0]!.querySelector("td:nth-child(2)")!);
    expect(router.state.location.pathname).toBe("/test_runs/ui-2");
    await router.navigate("/test_runs/ui-run-1");
    const card = await screen.findByRole("article", { name: /TC5 Login/ });
    await userEvent.click(within(card).getByRole("button", { name: "Details" }));
    expect(router.state.location.pathname).toBe("/test_runs/ui-run-1/login%230");
    expect(await screen.findByText("Signs in.")).toBeInTheDocument();
  });

  it("?be=1 opens the Backend results dialog instead", async () => {
    const fetchMock = mockRun();
    renderApp("/test_runs/api-run-1?be=1");
    await waitFor(() =>
      expect(requestedPaths(fetchMock)).toContain("/v1/api-test-run/api-run-1/view"),
    );
    expect(requestedPaths(fetchMock)).not.toContain("/v1/test-runs/api-run-1/view");
    expect(
      screen.getByRole("tab", { name: "Backend", selected: true, hidden: true }),
    ).toBeInTheDocument();
  });

  it("?load=1 opens the load run's dialog", async () => {
    const fetchMock = mockRun();
    renderApp("/test_runs/load-1?load=1");
    await waitFor(() => expect(requestedPaths(fetchMock)).toContain("/v1/load-test-runs/load-1"));
    expect(
      screen.getByRole("tab", { name: "Load", selected: true, hidden: true }),
    ).toBeInTheDocument();
  });
});
