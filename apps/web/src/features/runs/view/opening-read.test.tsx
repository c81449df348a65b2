import { screen, waitFor } from "@testing-library/react";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildCatalog } from "../../../test/catalog-factory";
import {
  buildFailedResult,
  buildFrontendRun,
  buildRunDetail,
  buildRunPage,
} from "../../../test/frontend-run-fixtures";
import { stubClientHeight } from "../../../test/layout-stub";
import { errorResponse, jsonResponse, mockApi } from "../../../test/mock-api";
import { renderApp, testQueryClient } from "../../../test/render-app";
import { backendViewHandler, frontendViewHandler } from "../../../test/run-view-fake";
import { buildBackendResult, buildBackendRun } from "../../../test/run-fixtures";
import { isOpeningRead, startOpeningRead } from "./opening-read";

/*
 * A page opened cold at a run's dialog asks for the dialog's first page as the app starts (the
 * dialog then finds it in the cache, under the same query key), and renders the run list behind
 * the dialog only once the dialog's first rows are on screen.
 */

vi.setConfig({ testTimeout: 30_000 });

const failing = buildFailedResult({ test_id: 5, test_run_test_id: "login#0", title: "Login" });

/** The API, logging each view request's query and, for the run list, whether a card showed. */
function mockRun(log: string[]) {
  const view = frontendViewHandler(buildRunDetail([failing]), { majorTags: [] });
  const apiView = backendViewHandler(
    {
      run: buildBackendRun({ test_run_key: "api-1" }),
      warnings: [],
      results: [buildBackendResult({ test_run_test_id: "case-7" })],
    },
    { majorTags: [] },
  );
  return mockApi({
    "/v1/catalog": () => jsonResponse(buildCatalog()),
    "/v1/dtag": () => errorResponse(404, "not_found", "No route"),
    "/v1/test-runs": () => {
      log.push(`list, a card shown: ${screen.queryByRole("article") !== null}`);
      return jsonResponse(buildRunPage([buildFrontendRun()]));
    },
    "/v1/api-test-runs": () => {
      log.push(`list, a row shown: ${screen.queryByRole("article") !== null}`);
      return jsonResponse(buildRunPage([buildBackendRun()]));
    },
    "/v1/test-runs/ui-run-1/view": (url) => {
      log.push(`view ${url.searchParams.toString()}`);
      return view(url);
    },
    "/v1/api-test-run/api-1/view": (url) => {
      log.push(`api view ${url.searchParams.toString()}`);
      return apiView(url);
    },
  });
}

let restoreLayout: () => void;
beforeAll(async () => {
  restoreLayout = stubClientHeight(800);
  await import("../TestReportsPage");
}, 60_000);
afterAll(() => restoreLayout());

describe("a page opened cold at a run's results dialog", () => {
  it("asks for the dialog's first page before rendering, once, and for the run list after its rows", async () => {
    const log: string[] = [];
    mockRun(log);
    const queryClient = testQueryClient();
    startOpeningRead(queryClient, { key: "ui-run-1" }, "?hide=passed");
    await waitFor(() => expect(log).toEqual(["view hide=passed&offset=0&limit=60"]));

    renderApp("/test_runs/ui-run-1?hide=passed", { queryClient });
    expect(await screen.findByRole("article", { name: /TC5 Login/ })).toBeInTheDocument();
    // The dialog used the answer asked for at start; the list came after the dialog's card.
    // (The first pages one click away, asked for later, are not this dialog's.)
    const own = () =>
      log.filter(
        (line) => !line.startsWith("view ") || line.startsWith("view hide=passed&offset="),
      );
    await waitFor(() => expect(own()).toHaveLength(2));
    expect(own()[1]).toBe("list, a card shown: true");
    expect(isOpeningRead()).toBe(false);
  });

  it("asks for a backend run's first page with the linked result to locate", async () => {
    const log: string[] = [];
    mockRun(log);
    const queryClient = testQueryClient();
    startOpeningRead(queryClient, { key: "api-1", test_key: "case-7" }, "?be=1");
    renderApp("/test_runs/api-1/case-7?be=1", { queryClient });
    await screen.findByRole("dialog", { name: /api-1/ });
    await waitFor(() => expect(log.some((line) => line.startsWith("list"))).toBe(true));
    const own = log.filter((line) => !line.includes("hide=failed"));
    expect(own).toEqual(["api view locate=case-7&offset=0&limit=60", "list, a row shown: true"]);
  });

  it("asks nothing early for the run list alone or a load run", () => {
    const log: string[] = [];
    const fetchMock = mockRun(log);
    startOpeningRead(testQueryClient(), {}, "?tab=backend");
    startOpeningRead(testQueryClient(), { key: "load-1" }, "?load=1");
    expect(fetchMock).not.toHaveBeenCalled();
    expect(isOpeningRead()).toBe(false);
  });
});
