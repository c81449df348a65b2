import { configure, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildCatalog } from "../../test/catalog-factory";
import { buildFrontendRun, buildRunPage } from "../../test/frontend-run-fixtures";
import { stubClientHeight } from "../../test/layout-stub";
import { jsonResponse, mockApi } from "../../test/mock-api";
import { renderApp } from "../../test/render-app";

/** Issue 32 item 15: the run lists' filters, in the URL and sent to the server. */

vi.setConfig({ testTimeout: 60_000 });
configure({ asyncUtilTimeout: 20_000 });

let restoreLayout: () => void;
beforeAll(async () => {
  restoreLayout = stubClientHeight(800);
  await import("./TestReportsPage");
}, 60_000);
afterAll(() => restoreLayout());

function mockLists() {
  const asked: URLSearchParams[] = [];
  mockApi({
    "/v1/catalog": () => jsonResponse(buildCatalog()),
    "/v1/test-runs": (url) => {
      asked.push(url.searchParams);
      const none = url.searchParams.get("q") === "nothing";
      return jsonResponse(
        buildRunPage(
          none ? [] : [buildFrontendRun({ test_run_key: "ui-1", test_run_name: "Smoke 1" })],
        ),
      );
    },
  });
  return asked;
}

describe("Test Reports filters", () => {
  it("reads the filters of a shared link and asks the server for them", async () => {
    const asked = mockLists();
    renderApp("/test_runs?platform=nextGen&region=CHINA&q=smoke&from=2026-03-01&to=2026-03-31");
    await screen.findByText("Smoke 1");
    const last = asked.at(-1)!;
    expect(Object.fromEntries(last)).toMatchObject({
      platform: "nextGen",
      region: "CHINA",
      q: "smoke",
      from: "2026-03-01",
      to: "2026-03-31",
      page: "1",
    });
    const bar = within(screen.getByRole("search", { name: "Filter runs" }));
    expect(bar.getByRole("textbox", { name: "Search" })).toHaveValue("smoke");
    expect(bar.getByRole("combobox", { name: "Platform" })).toHaveTextContent("NextGen");
  });

  it("a filter set on screen goes into the URL and the request, back to page 1", async () => {
    const asked = mockLists();
    const { router } = renderApp("/test_runs?page=3");
    await screen.findByText("Smoke 1");
    const bar = within(screen.getByRole("search", { name: "Filter runs" }));
    await userEvent.type(bar.getByRole("textbox", { name: "Branch" }), "release/7{Enter}");
    await waitFor(() => expect(router.state.location.search).toBe("?branch=release%2F7"));
    await userEvent.click(bar.getByRole("combobox", { name: "Status" }));
    await userEvent.click(await screen.findByRole("option", { name: "With failures" }));
    await waitFor(() =>
      expect(router.state.location.search).toBe("?branch=release%2F7&status=failed"),
    );
    expect(Object.fromEntries(asked.at(-1)!)).toMatchObject({
      branch: "release/7",
      status: "failed",
      page: "1",
    });
  });

  it("says when no run matches, and Clear filters shows every run again", async () => {
    mockLists();
    const { router } = renderApp("/test_runs?q=nothing");
    expect(await screen.findByText("No runs match these filters.")).toBeVisible();
    await userEvent.click(screen.getAllByRole("button", { name: "Clear filters" })[0]!);
    await waitFor(() => expect(router.state.location.search).toBe(""));
    expect(await screen.findByText("Smoke 1")).toBeVisible();
  });
});
