import { configure, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { errorResponse, jsonResponse, mockApi, requestedPaths } from "../../test/mock-api";
import { renderUi } from "../../test/render-ui";
import { TopFailsPage } from "./TopFailsPage";

configure({ asyncUtilTimeout: 5000 });

const renderPage = () => renderUi(<TopFailsPage />, { path: "/top_fails" });
const bodyRows = () =>
  within(screen.getByRole("table", { name: "Top failed tests" }))
    .getAllByRole("row")
    .slice(1);

describe("Top Failed Tests", { timeout: 20_000 }, () => {
  it("shows skeleton rows while loading", () => {
    mockApi({ "/v1/fails": () => new Promise<Response>(() => undefined) });
    renderPage();
    expect(screen.getByRole("columnheader", { name: "Fail Count" })).toBeVisible();
    expect(document.querySelectorAll(".MuiSkeleton-root").length).toBeGreaterThan(0);
  });

  it("lists Test ID, Title and Fail Count, most failures first, each id linked to its history", async () => {
    mockApi({
      "/v1/fails": () =>
        jsonResponse([
          { id: 12, title: "Checkout total", fail_count: 3 },
          { id: 7, title: "<i>Login</i> works", fail_count: 9 },
          { id: 5, title: "Search", fail_count: 3 },
        ]),
    });
    renderPage();
    await screen.findByRole("link", { name: "TC7" });

    expect(screen.getAllByRole("columnheader").map((h) => h.textContent)).toEqual([
      "Test ID",
      "Title",
      "Fail Count",
    ]);
    expect(bodyRows().map((row) => row.textContent)).toEqual([
      "TC7<i>Login</i> works9",
      "TC5Search3",
      "TC12Checkout total3",
    ]);
    expect(screen.getByRole("link", { name: "TC7" })).toHaveAttribute("href", "/history/7");
    const count = within(bodyRows()[0]!).getAllByRole("cell")[2]!;
    expect(count).toHaveClass("MuiTableCell-alignRight");
    // Titles are text, never HTML.
    expect(document.querySelector("tbody i")).toBeNull();
  });

  it("says so when nothing failed", async () => {
    mockApi({ "/v1/fails": () => jsonResponse([]) });
    renderPage();
    expect(
      await screen.findByText("No test failed in the last 2 months: nothing to fix here."),
    ).toBeVisible();
  });

  it("shows a failed fetch with a way to retry", async () => {
    const api = mockApi({ "/v1/fails": () => errorResponse(500, "internal_error", "Boom.") });
    renderPage();

    expect(await screen.findByText("Could not load the top failed tests: Boom.")).toBeVisible();
    await userEvent.click(screen.getByRole("button", { name: "Retry" }));
    await waitFor(() => expect(requestedPaths(api)).toEqual(["/v1/fails", "/v1/fails"]));
  });
});
