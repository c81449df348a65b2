import { MAX_HISTORY_LIMIT, type HistoryEntry } from "@assay/core";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { errorResponse, jsonResponse, mockApi, requestedPaths } from "../../test/mock-api";
import { renderUi } from "../../test/render-ui";
import { TestHistoryPage } from "./TestHistoryPage";

function entry(status: HistoryEntry["status"], day: number, key = `run-${day}`): HistoryEntry {
  const start = `2026-03-${String(day).padStart(2, "0")}T09:15:30.000Z`;
  return {
    testId: 777,
    url: `/test_runs/${key}/t-${day}`,
    status,
    date: start.slice(0, 10),
    passed: status === "passed",
    start_time: start,
    test_run_key: key,
    test_run_test_id: `t-${day}`,
  };
}

const HISTORY = [entry("failed", 4), entry("passed", 3), entry("other", 2), entry("passed", 1)];

// The history's own reads (the flaky score, renames and retention's removed counts beside it
// are read too, from their own routes).
const historyPaths = (api: ReturnType<typeof mockApi>) =>
  requestedPaths(api).filter((path) => path.startsWith("/v1/history/"));

const renderAt = (path: string) => renderUi(<TestHistoryPage />, { path, route: "/history/:id?" });
const idField = () => screen.getByRole("textbox", { name: "Test ID" });
const retrieve = () => screen.getByRole("button", { name: "Retrieve" });

describe("Test History", { timeout: 20_000 }, () => {
  it("fetches the id in the URL on open and lists its past results, newest first", async () => {
    const api = mockApi({ "/v1/history/777": () => jsonResponse(HISTORY) });
    renderAt("/history/777");

    const table = await screen.findByRole("table", { name: "Past results" });
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      "2026-03-04 09:15Failedrun-4",
      "2026-03-03 09:15Passedrun-3",
      "2026-03-02 09:15Otherrun-2",
      "2026-03-01 09:15Passedrun-1",
    ]);
    expect(within(rows[0]!).getByRole("link", { name: "run-4" })).toHaveAttribute(
      "href",
      "/test_runs/run-4/t-4",
    );
    expect(idField()).toHaveValue("777");
    expect(screen.getByText(/4 results/)).toBeVisible();
    expect(historyPaths(api)).toEqual(["/v1/history/777"]);
  });

  it("shows the test's flaky score beside its history, linking to the evidence", async () => {
    const context = {
      testId: 777,
      name: "checkout",
      score: 0.42,
      flipRate: 0.4,
      failureRate: 0.3,
      failureRateLow: 0.1,
      failureRateHigh: 0.5,
      retriesPassed: 1,
      results: 10,
      lastFlipRunKey: "run-4",
      context: {
        family: "frontend",
        platform: null,
        branch: "main",
        site: null,
        environment: null,
      },
      outcomes: "pfpfpppfpp",
      flaky: true,
      runs: [],
      groups: [],
    };
    mockApi({
      "/v1/history/777": () => jsonResponse(HISTORY),
      "/v1/flaky-tests/777": () =>
        jsonResponse({
          testId: 777,
          threshold: 0.1,
          minResults: 5,
          window: 30,
          contexts: [context],
        }),
    });
    renderAt("/history/777");

    const score = await screen.findByRole("link", { name: /Flaky 0\.42 · frontend · main/ });
    expect(score).toHaveAttribute("href", "/flaky/777");
  });

  it("shows the full UTC timestamp when the date is hovered", async () => {
    mockApi({ "/v1/history/777": () => jsonResponse(HISTORY) });
    renderAt("/history/777");

    await userEvent.hover(await screen.findByText("2026-03-04 09:15"));

    expect(await screen.findByRole("tooltip")).toHaveTextContent("2026-03-04 09:15:30 UTC");
  });

  it("draws the bar green for the passed share and red for the rest, labelled over 4%", async () => {
    mockApi({ "/v1/history/777": () => jsonResponse(HISTORY) });
    const { container } = renderAt("/history/777");

    const bar = await screen.findByRole("img", { name: /^Pass rate/ });
    expect(bar).toHaveAccessibleName("Pass rate: 2 of 4 passed (50%), 2 failed or other (50%)");
    const passed = container.querySelector<HTMLElement>('[data-segment="passed"]')!;
    const rest = container.querySelector<HTMLElement>('[data-segment="rest"]')!;
    expect(passed.style.width || getComputedStyle(passed).width).toBe("50%");
    expect(getComputedStyle(passed).backgroundColor).toBe("rgb(26, 127, 55)");
    expect(getComputedStyle(rest).backgroundColor).toBe("rgb(209, 36, 47)");
    expect(passed).toHaveTextContent("50%");
  });

  it("leaves out the label of a share of 4% or less", async () => {
    const many = [
      entry("passed", 1),
      ...Array.from({ length: 29 }, (_, i) => entry("failed", i + 2)),
    ];
    mockApi({ "/v1/history/9": () => jsonResponse(many) });
    const { container } = renderAt("/history/9");

    await screen.findByRole("img", { name: /^Pass rate/ });
    const passed = container.querySelector('[data-segment="passed"]')!;
    const rest = container.querySelector('[data-segment="rest"]')!;
    expect(passed).toHaveTextContent(/^$/);
    expect(rest).toHaveTextContent("96.7%");
  });

  it("asks for all the history the API gives, and says when older results are left out", async () => {
    const full = Array.from({ length: MAX_HISTORY_LIMIT }, (_, i) =>
      entry("passed", (i % 28) + 1, `run-${i}`),
    );
    const api = mockApi({ "/v1/history/5": () => jsonResponse(full) });
    renderAt("/history/5");
    expect(
      await screen.findByText("the newest 1,000 results (older ones are not counted)"),
    ).toBeInTheDocument();
    expect(String(api.mock.calls[0]![0])).toContain(`/v1/history/5?limit=${MAX_HISTORY_LIMIT}`);
  });

  it("keeps Retrieve disabled while the field is empty and refuses non-digits", async () => {
    mockApi({});
    renderAt("/history");
    expect(retrieve()).toBeDisabled();
    expect(
      screen.getByText("Enter a test id to see its past results and pass rate."),
    ).toBeVisible();

    await userEvent.type(idField(), "a");
    expect(idField()).toHaveValue("a");
    expect(screen.getByText(/“a” is not a test id: digits only, e\.g\. 1234/)).toBeVisible();
    expect(retrieve()).toBeDisabled();

    await userEvent.clear(idField());
    await userEvent.type(idField(), "12");
    expect(idField()).toHaveValue("12");
    expect(retrieve()).toBeEnabled();
    expect(screen.queryByText(/is not a test id/)).toBeNull();
  });

  it("refuses 1.5 and -1 in words instead of reading them as 15 and 1", async () => {
    const api = mockApi({});
    renderAt("/history");
    for (const typed of ["1.5", "-1"]) {
      await userEvent.clear(idField());
      await userEvent.type(idField(), `${typed}{Enter}`);
      expect(idField()).toHaveValue(typed);
      expect(screen.getByText(new RegExp(`“${typed}” is not a test id`))).toBeVisible();
      expect(retrieve()).toBeDisabled();
    }
    expect(api).not.toHaveBeenCalled();
  });

  it("takes a pasted TC id as its number", async () => {
    mockApi({});
    renderAt("/history");
    await userEvent.click(idField());
    await userEvent.paste("TC4321");
    expect(idField()).toHaveValue("4321");
  });

  it("fetches on Enter and puts the id in the URL", async () => {
    const api = mockApi({ "/v1/history/42": () => jsonResponse([entry("passed", 1)]) });
    const { router } = renderAt("/history");

    await userEvent.type(idField(), "42{Enter}");

    expect(await screen.findByRole("table", { name: "Past results" })).toBeVisible();
    expect(router.state.location.pathname).toBe("/history/42");
    expect(historyPaths(api)).toEqual(["/v1/history/42"]);
  });

  it("fetches again when Retrieve is pressed for the id already shown", async () => {
    const api = mockApi({ "/v1/history/42": () => jsonResponse([entry("passed", 1)]) });
    renderAt("/history/42");
    await screen.findByRole("table", { name: "Past results" });

    await userEvent.click(retrieve());

    await waitFor(() => expect(historyPaths(api)).toEqual(["/v1/history/42", "/v1/history/42"]));
  });

  it("shows a spinner while fetching", async () => {
    mockApi({ "/v1/history/42": () => new Promise<Response>(() => undefined) });
    renderAt("/history/42");
    expect(
      await screen.findByRole("progressbar", { name: "Loading the test's history" }),
    ).toBeVisible();
  });

  it("says when no test has the id", async () => {
    mockApi({ "/v1/history/5": () => errorResponse(404, "not_found", "No test with id 5.") });
    renderAt("/history/5");
    expect(
      await screen.findByText(
        "No test TC5 in Assay: check the id, or upload a report that contains it.",
      ),
    ).toBeVisible();
  });

  it("says when the test has no results yet", async () => {
    mockApi({ "/v1/history/5": () => jsonResponse([]) });
    renderAt("/history/5");
    expect(await screen.findByText("TC5 has no recorded results yet.")).toBeVisible();
  });

  it("shows a failed fetch with a way to retry", async () => {
    const api = mockApi({ "/v1/history/5": () => errorResponse(500, "internal_error", "Boom.") });
    renderAt("/history/5");

    expect(await screen.findByText("Could not load the history of TC5: Boom.")).toBeVisible();
    await userEvent.click(screen.getByRole("button", { name: "Retry" }));
    await waitFor(() => expect(historyPaths(api)).toHaveLength(2));
  });

  it("does not fetch an id in the URL that is not a number", async () => {
    const api = mockApi({});
    renderAt("/history/abc");
    expect(await screen.findByText(/“abc” is not a test id/)).toBeVisible();
    expect(historyPaths(api)).toEqual([]);
  });
});
