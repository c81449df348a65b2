import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { errorResponse, jsonResponse, mockApi, requestedPaths } from "../../test/mock-api";
import { renderUi } from "../../test/render-ui";
import { TopFailsPage } from "./TopFailsPage";

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

  it("tells same-named tests apart by their suite path and file", async () => {
    mockApi({
      "/v1/fails": () =>
        jsonResponse([
          {
            id: 21,
            title: "Patient login",
            suite_path: ["Login", "Patient app"],
            file: "features/patient.feature",
            fail_count: 9,
          },
          {
            id: 22,
            title: "Patient login",
            suite_path: ["Login", "Staff portal"],
            file: "features/staff.feature",
            fail_count: 8,
          },
        ]),
    });
    renderPage();
    await screen.findByRole("link", { name: "TC21" });
    expect(bodyRows().map((row) => row.textContent)).toEqual([
      "TC21Login › Patient app › Patient loginfeatures/patient.feature9",
      "TC22Login › Staff portal › Patient loginfeatures/staff.feature8",
    ]);
  });

  it("shows 15 rows a page, with the spec's page sizes", async () => {
    const rows = Array.from({ length: 40 }, (_, i) => ({
      id: i + 1,
      title: `Test ${i + 1}`,
      fail_count: 100 - i,
    }));
    let limit: string | null = null;
    mockApi({
      "/v1/fails": (url) => {
        limit = url.searchParams.get("limit");
        return jsonResponse(rows);
      },
    });
    renderPage();
    await screen.findByRole("link", { name: "TC1" });
    expect(bodyRows()).toHaveLength(15);
    expect(screen.getByText("1–15 of 40")).toBeVisible();
    // Every test the API has is asked for: the pager shows them all.
    expect(limit).toBe("500");

    await userEvent.click(screen.getByRole("button", { name: "Go to next page" }));
    expect(bodyRows()[0]).toHaveTextContent("TC16");
    expect(screen.getByText("16–30 of 40")).toBeVisible();

    await userEvent.click(screen.getByRole("combobox", { name: /rows per page/i }));
    const options = within(screen.getByRole("listbox")).getAllByRole("option");
    expect(options.map((option) => option.textContent)).toEqual(["10", "15", "20", "30", "100"]);
    await userEvent.click(screen.getByRole("option", { name: "100" }));
    expect(bodyRows()).toHaveLength(40);
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
