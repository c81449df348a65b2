import type { BackendResult, BackendRunDetail } from "@assay/core";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCatalog } from "../../../test/catalog-factory";
import { stubClientHeight } from "../../../test/layout-stub";
import { errorResponse, jsonResponse, mockApi, requestedPaths } from "../../../test/mock-api";
import { renderUi } from "../../../test/render-ui";
import { buildApiRequests, buildBackendResult, buildBackendRun } from "../../../test/run-fixtures";
import { backendViewHandler } from "../../../test/run-view-fake";
import { BackendResultsDialog } from "./BackendResultsDialog";

const REPO = "https://git.example.com/qa/api-tests/blob/master/";
const XSS = "<img src=x onerror=alert(1)>";
const catalog = buildCatalog({ majorTags: ["@patients", "@visits"], sourceRepositoryUrl: REPO });

const failing = buildBackendResult({
  test_run_test_id: "patients#0",
  test_id: 11,
  title: "GET /patients answers 200",
  scenario: "patients",
  status: "failed",
  passed: false,
  tags: ["@patients"],
  file: "test/patients.spec.ts",
  error_message: {
    name: "AssertionError",
    message: "expected 500 to equal 200",
    stack: [
      "AssertionError: expected 500 to equal 200",
      "    at Assertion.assert (node_modules/chai/lib/chai.js:41:13)",
      "    at Context.<anonymous> (/ci/work/test/patients.spec.ts:27:18)",
    ].join("\n"),
  },
  consoleLog: `short line\n${"a".repeat(100)}${"TAIL".repeat(10)}\nlast line`,
  body: "it('answers 200', async () => { ... })",
});
const passing = buildBackendResult({ test_id: 12, title: XSS, tags: ["@visits"] });
const unknownFailure = buildBackendResult({
  test_id: 13,
  title: "POST /visits",
  status: "failed",
  passed: false,
  tags: ["@smoke"],
});
const retried = buildBackendResult({ test_id: 11, status: "failed", is_final: false });

function detail(results: BackendResult[], overrides = {}): BackendRunDetail {
  const finals = results.filter((r) => r.is_final);
  return {
    run: buildBackendRun({
      total: finals.length,
      passed: finals.filter((r) => r.status === "passed").length,
      failed: finals.filter((r) => r.status === "failed").length,
      ...overrides,
    }),
    warnings: [],
    results,
  };
}

/** The run's view, and each result's detail (an opened row reads its error, log and script). */
function mockRun(body: BackendRunDetail, extra: Parameters<typeof mockApi>[0] = {}) {
  const details = Object.fromEntries(
    body.results.map((result) => [
      `/v1/api-test-detail/api-run-1/${encodeURIComponent(result.test_run_test_id)}`,
      () => jsonResponse({ ...result, apiRequests: [], attempts: [result] }),
    ]),
  );
  return mockApi({
    "/v1/catalog": () => jsonResponse(catalog),
    "/v1/api-test-run/api-run-1/view": backendViewHandler(body, { majorTags: catalog.majorTags }),
    ...details,
    ...extra,
  });
}

function renderDialog(path = "/test_runs/api-run-1?be=1") {
  return renderUi(<BackendResultsDialog runKey="api-run-1" open onClose={() => undefined} />, {
    path,
    route: "/test_runs/:key?/:test_key?",
  });
}

const box = (label: string) => screen.getByRole("region", { name: label });
const row = (name: string | RegExp) => screen.getByRole("article", { name });

let restoreLayout: () => void;
beforeAll(() => {
  restoreLayout = stubClientHeight(800);
});
afterAll(() => restoreLayout());

// Full dialogs with MUI transitions: slow under a loaded CI machine, not slow in use.
describe("BackendResultsDialog", { timeout: 30_000 }, () => {
  it("shows skeletons while the results load, with the run key as title", () => {
    mockApi({
      "/v1/catalog": () => jsonResponse(catalog),
      "/v1/api-test-run/api-run-1/view": () => new Promise<Response>(() => undefined),
    });
    renderDialog();
    expect(screen.getByRole("dialog", { name: "api-run-1" })).toBeInTheDocument();
    expect(screen.getByLabelText("Loading results")).toBeInTheDocument();
  });

  it("says 'Error occurred fetching results' when the run cannot be read", async () => {
    mockApi({
      "/v1/catalog": () => jsonResponse(catalog),
      "/v1/api-test-run/api-run-1/view": () => errorResponse(404, "not_found", "No API test run."),
    });
    renderDialog();
    expect(await screen.findByText("Error occurred fetching results")).toBeInTheDocument();
    expect(screen.getByText("No API test run.")).toBeInTheDocument();
  });

  it("shows what the run's report said that was stored otherwise", async () => {
    const warning =
      "jest-junit.xml: the report's totals say 6 tests, but it lists 7 tests; the 7 test cases listed are stored.";
    mockRun({ ...detail([retried]), warnings: [warning] });
    renderDialog();
    const alert = await screen.findByRole("status", { name: "Report warnings" });
    expect(alert).toHaveTextContent(warning);
  });

  it("names the run in its bar and copies a link to this view, as the Frontend dialog does", async () => {
    const user = userEvent.setup();
    mockRun(detail([failing, passing]));
    renderDialog("/test_runs/api-run-1?be=1&q=patients");
    expect(
      await screen.findByText(
        "2026-05-01 06:00 API · stage · daily-robot · master · 2026-05-01 06:00:00 UTC",
      ),
    ).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Copy link" }));
    await waitFor(async () =>
      expect(await navigator.clipboard.readText()).toBe(
        `${window.location.origin}/test_runs/api-run-1?be=1&q=patients`,
      ),
    );
    expect(await screen.findByText("Link copied")).toBeInTheDocument();
  });

  it("says so when the run has no results", async () => {
    mockRun(detail([]));
    renderDialog();
    expect(await screen.findByText("This run has no results.")).toBeInTheDocument();
    expect(within(box("Total")).getByText("0")).toBeInTheDocument();
    expect(await within(box("Failed Summary")).findByText("No failures.")).toBeInTheDocument();
  });

  it("shows the info boxes, the failed summary and the final results only", async () => {
    mockRun(detail([retried, failing, passing, unknownFailure]));
    renderDialog();

    await screen.findByRole("article", { name: /TC11/ });
    expect(within(box("Total")).getByText("3")).toBeInTheDocument();
    expect(within(box("Passed")).getByText("1")).toBeInTheDocument();
    expect(within(box("Failed")).getByText("2")).toBeInTheDocument();
    expect(screen.getAllByRole("article")).toHaveLength(3);

    const summary = within(box("Failed Summary"));
    const lines = (await summary.findAllByRole("listitem")).map((li) => li.textContent);
    expect(lines).toEqual(["@patients1", "Unknown1"]);

    // Signed out (GET /v1/me is not answered): Rerun is disabled with 'Please sign in'.
    const rerun = within(box("Failed")).getByRole("button", { name: "Rerun failed" });
    expect(rerun).toBeDisabled();
    await userEvent.hover(rerun.parentElement!);
    expect(await screen.findByRole("tooltip")).toHaveTextContent("Please sign in");
  });

  it("hides the failed results with the Failed box's Hide switch", async () => {
    mockRun(detail([failing, passing, unknownFailure]));
    renderDialog();
    await screen.findByRole("article", { name: /TC11/ });

    await userEvent.click(screen.getByRole("switch", { name: "Hide failed results" }));
    await waitFor(() =>
      expect(screen.getAllByRole("article").map((a) => a.getAttribute("aria-label"))).toEqual([
        `TC12 ${XSS}`,
      ]),
    );
    await userEvent.click(screen.getByRole("switch", { name: "Hide failed results" }));
    await waitFor(() => expect(screen.getAllByRole("article")).toHaveLength(3));
  });

  it("shows a 'Pending reason' failure as skipped with its reason, out of Failed", async () => {
    const pending = buildBackendResult({
      test_id: 14,
      title: "GET /sms",
      status: "failed",
      passed: false,
      tags: ["@patients"],
      error_message: {
        name: "PendingError",
        message: "Pending reason == Blocked by nxl-5",
        stack: null,
      },
    });
    mockRun(detail([failing, pending, passing], { failed: 1, pending: 1 }));
    renderDialog();
    const skipped = within(await screen.findByRole("article", { name: /TC14/ }));
    expect(skipped.getByText("Skipped")).toBeInTheDocument();
    expect(skipped.getByText("Pending: Blocked by nxl-5")).toBeInTheDocument();
    expect(within(row(/TC11/)).getByText("Failed")).toBeInTheDocument();
    expect(within(box("Failed")).getByText("1")).toBeInTheDocument();
    // The Failed Summary adds up to the Failed box: the pending result is not in it.
    const summary = within(box("Failed Summary"));
    const lines = (await summary.findAllByRole("listitem")).map((li) => li.textContent);
    expect(lines).toEqual(["@patients1"]);

    await userEvent.click(screen.getByRole("switch", { name: "Hide failed results" }));
    await waitFor(() =>
      expect(screen.getAllByRole("article").map((a) => a.getAttribute("aria-label"))).toEqual([
        "TC14 GET /sms",
        `TC12 ${XSS}`,
      ]),
    );
  });

  it("shows the failures alone with the Passed and Skipped boxes' Hide switches", async () => {
    const pending = buildBackendResult({
      test_id: 14,
      title: "GET /sms",
      status: "failed",
      passed: false,
      error_message: { name: "PendingError", message: "Pending reason == later", stack: null },
    });
    const requests = mockRun(detail([failing, pending, passing], { failed: 1, pending: 1 }));
    renderDialog();
    await screen.findByRole("article", { name: /TC14/ });
    expect(within(box("Skipped")).getByText("1")).toBeInTheDocument();

    await userEvent.click(screen.getByRole("switch", { name: "Hide passed results" }));
    await userEvent.click(screen.getByRole("switch", { name: "Hide skipped results" }));
    await waitFor(() =>
      expect(screen.getAllByRole("article").map((a) => a.getAttribute("aria-label"))).toEqual([
        "TC11 GET /patients answers 200",
      ]),
    );
    // Filtered by the server, as the Frontend dialog's switches are: the view is asked without them.
    const asked = requests.mock.calls.map(([input]) => new URL(String(input), "http://x"));
    expect(asked.some((url) => url.searchParams.get("hide") === "passed,skipped")).toBe(true);
  });

  it("links the ticket keys of a backend error to the issue tracker", async () => {
    const ticketed = buildBackendResult({
      test_id: 15,
      title: "GET /visits",
      status: "failed",
      passed: false,
      error_message: {
        name: "AssertionError",
        message: "known bug nxl-42, see NXL-7",
        stack: null,
      },
    });
    mockRun(detail([ticketed]));
    renderDialog();
    const result = within(await screen.findByRole("article", { name: /TC15/ }));
    await userEvent.click(result.getByRole("button", { expanded: false }));
    const error = within(await result.findByRole("region", { name: "Error" }));
    expect(await error.findByRole("link", { name: "NXL-42" })).toHaveAttribute(
      "href",
      "https://jira.example.com/browse/NXL-42",
    );
    expect(error.getByRole("link", { name: "NXL-7" })).toHaveAttribute(
      "href",
      "https://jira.example.com/browse/NXL-7",
    );
  });

  it("renders a test name as text, never as HTML", async () => {
    mockRun(detail([passing]));
    const { container } = renderDialog();
    expect(await screen.findByText(XSS)).toBeInTheDocument();
    expect(container.ownerDocument.querySelector("img")).toBeNull();
  });

  it("expands a result into its error, stack with source link, console log and script", async () => {
    mockRun(detail([failing, passing]));
    renderDialog();
    const header = within(await screen.findByRole("article", { name: /TC11/ })).getByRole(
      "button",
      { expanded: false },
    );
    await userEvent.click(header);
    expect(header).toHaveAttribute("aria-expanded", "true");

    const result = within(row(/TC11/));
    expect(
      within(await result.findByRole("region", { name: "Error" })).getByText(/AssertionError/),
    ).toBeInTheDocument();
    expect(result.getByText(/expected 500 to equal 200$/)).toBeInTheDocument();
    expect(result.getByRole("link", { name: "View source" })).toHaveAttribute(
      "href",
      `${REPO}test/patients.spec.ts#L27`,
    );
    expect(result.getByText(/chai\.js:41:13/)).toBeInTheDocument();
    expect(result.getByText("it('answers 200', async () => { ... })")).toBeInTheDocument();
  });

  it("cuts console lines at 100 characters, each expandable on its own", async () => {
    mockRun(detail([failing]));
    renderDialog();
    await userEvent.click(
      within(await screen.findByRole("article", { name: /TC11/ })).getByRole("button", {
        expanded: false,
      }),
    );
    const log = await screen.findByRole("list", { name: "Console log" });
    const lines = within(log).getAllByRole("listitem");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toHaveTextContent(/^short line$/);
    expect(lines[1]).toHaveTextContent(`${"a".repeat(100)}…more`);
    expect(lines[1]).not.toHaveTextContent("TAIL");

    await userEvent.click(within(log).getByRole("button", { name: "Show all of line 2" }));
    expect(lines[1]).toHaveTextContent(`${"a".repeat(100)}${"TAIL".repeat(10)}less`);
    await userEvent.click(within(log).getByRole("button", { name: "Shorten line 2" }));
    expect(lines[1]).not.toHaveTextContent("TAIL");
  });

  it("says the script is missing when the report has none", async () => {
    mockRun(detail([unknownFailure]));
    renderDialog();
    await userEvent.click(
      within(await screen.findByRole("article", { name: /TC13/ })).getByRole("button", {
        expanded: false,
      }),
    );
    // A backend result records no Before steps: nothing to blame them for.
    expect(await screen.findByText("No script recorded")).toBeInTheDocument();
    expect(screen.queryByText(/Probably failed at 'Before' action/)).toBeNull();
    expect(screen.queryByRole("link", { name: "View source" })).toBeNull();
  });

  it("opens a linked result, its detail and API requests read in one request", async () => {
    const fetchMock = mockRun(detail([failing]), {
      "/v1/api-test-detail/api-run-1/patients%230": () =>
        jsonResponse({ ...failing, apiRequests: buildApiRequests(2), attempts: [failing] }),
    });
    renderDialog("/test_runs/api-run-1/patients%230?be=1");

    // The test key of the URL opens that result.
    const result = within(await screen.findByRole("article", { name: /TC11/ }));
    expect(result.getByRole("button", { expanded: true })).toBeInTheDocument();
    await userEvent.click(await result.findByRole("button", { name: "API requests" }));
    const table = await result.findByRole("table", { name: "API requests of this test" });
    const rows = within(table).getAllByRole("row");
    expect(rows.map((r) => r.textContent)).toEqual([
      "MethodURLStatusResponse Time (ms)",
      "GET/v1/items/120010",
      "POST/v1/items/220011",
    ]);
    const detailPath = "/v1/api-test-detail/api-run-1/patients%230";
    expect(requestedPaths(fetchMock).filter((path) => path === detailPath)).toHaveLength(1);
  });

  it("says 'Error occurred fetching test details...' when an opened result cannot be read", async () => {
    mockRun(detail([failing]), {
      "/v1/api-test-detail/api-run-1/patients%230": () => errorResponse(500, "internal", "boom"),
    });
    renderDialog("/test_runs/api-run-1/patients%230?be=1");
    expect(
      await screen.findByText(/^Error occurred fetching test details\.\.\./),
    ).toBeInTheDocument();
  });

  it("opens the API Requests dialog from the Total box and keeps it in the URL", async () => {
    mockRun(detail([passing]), {
      "/v1/api-test-run/api-log/api-run-1": () =>
        jsonResponse({ items: buildApiRequests(3), total: 3, page: 1, page_size: 100 }),
    });
    const { router } = renderDialog();
    await userEvent.click(await screen.findByRole("button", { name: "View API Requests" }));
    expect(await screen.findByRole("dialog", { name: "API Requests · api-run-1" })).toBeVisible();
    expect(router.state.location.search).toBe("?be=1&api_log=1");

    await userEvent.click(
      within(screen.getByRole("dialog", { name: "API Requests · api-run-1" })).getByRole("button", {
        name: "Close",
      }),
    );
    await waitFor(() => expect(router.state.location.search).toBe("?be=1"));
  });

  it("copies the failed summary and a tag's failed ids", async () => {
    const user = userEvent.setup();
    mockRun(detail([failing, unknownFailure]));
    renderDialog();
    await screen.findByRole("article", { name: /TC11/ });
    await user.click(await screen.findByRole("button", { name: "Copy Summary" }));
    expect(await navigator.clipboard.readText()).toBe("@patients: 1\nUnknown: 1");
    await user.click(screen.getByRole("button", { name: "Copy the failed ids of Unknown" }));
    expect(await navigator.clipboard.readText()).toBe("TC13");
  });
});
