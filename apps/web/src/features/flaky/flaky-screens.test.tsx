import type { FlakyDetail, FlakySummary, FlakyTest, TagList } from "@assay/core";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { jsonResponse, mockApi } from "../../test/mock-api";
import { renderUi } from "../../test/render-ui";
import { dailyCounts } from "./FlakyOverview";
import { FlakyTestsPage } from "./FlakyTestsPage";

const test = (testId: number, name: string, score: number): FlakyTest => ({
  testId,
  name,
  score,
  flipRate: 0.5,
  failureRate: 0.25,
  failureRateLow: 0.112,
  failureRateHigh: 0.469,
  retriesPassed: 2,
  results: 20,
  lastFlipRunKey: "nightly-42",
  context: {
    family: "frontend",
    platform: "chrome",
    branch: "main",
    site: null,
    environment: null,
  },
  outcomes: "pfprpfpp",
});

const LIST = [test(101, "checkout pays", 0.61), test(102, "login remembers", 0.2)];
const SUMMARY: FlakySummary = {
  threshold: 0.1,
  window: 30,
  minResults: 5,
  trend: [{ day: new Date().toISOString().slice(0, 10), family: "frontend", count: 2 }],
  stableUnstable: [{ testId: 300, name: "search filters", results: 30 }],
};
const TAGS: TagList = {
  byTag: {
    "@unstable": {
      id: 1,
      tests: [
        { id: 102, name: "login remembers", taggedTestId: 55 },
        { id: 300, name: "search filters", taggedTestId: 56 },
      ],
      test_ids: [102, 300],
    },
  },
  options: [{ text: "@unstable", value: 1 }],
};

function serve() {
  const sent: { method: string; path: string; body: unknown }[] = [];
  const api = mockApi({
    "/v1/flaky-tests": () => jsonResponse(LIST),
    "/v1/flaky-tests/summary": () => jsonResponse(SUMMARY),
    "/v1/dtag": () => jsonResponse(TAGS),
    "/v1/dtag/": (url, init) => {
      sent.push({
        method: init?.method ?? "GET",
        path: url.pathname,
        body: JSON.parse(String(init?.body)),
      });
      return jsonResponse({
        tag: { id: 1, name: "@unstable" },
        test: { id: 101, name: "checkout pays", taggedTestId: 57 },
        tagCreated: false,
        alreadyTagged: false,
      });
    },
    "/v1/tagged_test/56": (url, init) => {
      sent.push({ method: init?.method ?? "GET", path: url.pathname, body: null });
      return jsonResponse({ id: 56, tagId: 1, testId: 300 });
    },
  });
  return { api, sent };
}

describe("Flaky Tests", { timeout: 30_000 }, () => {
  it("ranks the flaky tests with their figures and window, filters in the URL", async () => {
    const { api } = serve();
    renderUi(<FlakyTestsPage />, { path: "/flaky?branch=main", route: "/flaky/:id?" });
    const table = await screen.findByRole("table", { name: "Flaky tests" });
    await within(table).findByText("checkout pays");
    const rows = within(table).getAllByRole("row");
    expect(rows[1]).toHaveTextContent("checkout pays");
    expect(rows[1]).toHaveTextContent("TC101 · frontend · main · chrome");
    expect(rows[1]).toHaveTextContent("0.61");
    expect(rows[1]).toHaveTextContent("25%11.2%–46.9%");
    expect(within(rows[1]!).getByRole("img")).toHaveAccessibleName(
      "Last 8 results, oldest first: passed, failed, passed, passed on retry, passed, failed, passed, passed",
    );
    expect(within(rows[2]!).getByText("@unstable")).toBeVisible();
    const listCall = api.mock.calls
      .map(([input]) => String(input))
      .find((u) => u.includes("/v1/flaky-tests?"));
    expect(listCall).toContain("branch=main");
  });

  it("tags a test '@unstable' in one click through the tags API", async () => {
    const { sent } = serve();
    renderUi(<FlakyTestsPage />, { path: "/flaky", route: "/flaky/:id?" });
    await userEvent.click(await screen.findByRole("button", { name: "Tag @unstable" }));
    await waitFor(() =>
      expect(sent).toContainEqual({
        method: "POST",
        path: "/v1/dtag/",
        body: { name: "@unstable", testId: 101, testName: "checkout pays" },
      }),
    );
  });

  it("suggests removing '@unstable' from a test stable again, in one click", async () => {
    const { sent } = serve();
    renderUi(<FlakyTestsPage />, { path: "/flaky", route: "/flaky/:id?" });
    expect(await screen.findByText(/Stable again/)).toBeVisible();
    await userEvent.click(await screen.findByRole("button", { name: "Remove @unstable" }));
    await waitFor(() =>
      expect(sent).toContainEqual({ method: "DELETE", path: "/v1/tagged_test/56", body: null }),
    );
  });
});

describe("a test's flaky evidence", { timeout: 30_000 }, () => {
  it("says a window of too few results is too few to call flaky, whatever its score", async () => {
    const detail: FlakyDetail = {
      testId: 777,
      threshold: 0.1,
      window: 30,
      minResults: 5,
      contexts: [
        {
          ...test(777, "newcomer", 1),
          flipRate: 1,
          results: 2,
          outcomes: "pf",
          flaky: false,
          runs: [
            { runKey: "nightly-1", at: "2026-03-28T02:00:00.000Z", outcome: "p", flipped: false },
            { runKey: "nightly-2", at: "2026-03-29T02:00:00.000Z", outcome: "f", flipped: true },
          ],
          groups: [],
        },
      ],
    };
    mockApi({
      "/v1/flaky-tests/777": () => jsonResponse(detail),
      "/v1/dtag": () => jsonResponse(TAGS),
    });
    renderUi(<FlakyTestsPage />, { path: "/flaky/777", route: "/flaky/:id?" });
    expect(await screen.findByText("Too few results to say: 2 of 5")).toBeVisible();
    expect(screen.queryByText("Flaky")).toBeNull();
  });

  it("states the least number of results beside the day's count", async () => {
    serve();
    renderUi(<FlakyTestsPage />, { path: "/flaky", route: "/flaky/:id?" });
    expect(
      await screen.findByText(/score ≥ 0.1 over the last 30 results, at least 5/),
    ).toBeVisible();
  });
});

describe("the trend's days", () => {
  it("sums the families of a day and carries a count over days without runs", () => {
    const now = new Date("2026-03-30T12:00:00Z");
    const counts = dailyCounts(
      [
        { day: "2026-03-27", family: "frontend", count: 2 },
        { day: "2026-03-27", family: "backend", count: 1 },
        { day: "2026-03-29", family: "frontend", count: 5 },
      ],
      now,
    );
    expect(counts).toHaveLength(30);
    expect(counts.slice(-5)).toEqual([0, 3, 3, 5, 5]);
  });
});
