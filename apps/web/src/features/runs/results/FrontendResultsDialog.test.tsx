import { DEFAULT_DEFECT, type FrontendResult, type RunHistory } from "@assay/core";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildCatalog } from "../../../test/catalog-factory";
import {
  buildFailedResult,
  buildFrontendResult,
  buildHistory,
  buildRunDetail,
  buildRunPage,
} from "../../../test/frontend-run-fixtures";
import { stubClientHeight } from "../../../test/layout-stub";
import { errorResponse, jsonResponse, mockApi } from "../../../test/mock-api";
import { renderApp } from "../../../test/render-app";
import { frontendViewHandler } from "../../../test/run-view-fake";

// MUI's dialogs are slow to render in jsdom; these tests wait for real renders.
vi.setConfig({ testTimeout: 60_000 });

const XSS = "<img src=x onerror=alert(1)>";
const catalog = buildCatalog({ majorTags: ["@login", "@consent"] });

const passed = buildFrontendResult({ test_id: 1, title: "Passes", tags: ["@login"] });
const newFailure = buildFailedResult({
  test_id: 2,
  title: "Consent is signed",
  scenario: "Consent",
  tags: ["@consent"],
  screenshot: "attachments/2026/05/shot.png",
  error_message: "Element not found, see nxl-123 and NXL-7",
  tickets: ["NXL-123", "NXL-7"],
  chrome_version: "126.0.1",
  platform: "linux",
  commit_hash: "0123456789abcdef",
  duration_ms: 65_000,
});
const oldFailure = buildFailedResult({ test_id: 3, title: XSS, tags: ["@Consent", "@login"] });
const loginFailure = buildFailedResult({ test_id: 4, title: "Login fails", tags: ["@login"] });
const untagged = buildFailedResult({ test_id: 5, title: "No major tag", tags: ["@smoke"] });
const unstable = buildFailedResult({ test_id: 6, title: "Sometimes" }, "unstable");
const skipped = buildFailedResult(
  {
    test_id: 7,
    title: "Waits",
    error_message: "Pending reason == env down",
    pending_reason: "env down",
  },
  "skipped",
);
const results: FrontendResult[] = [
  passed,
  newFailure,
  oldFailure,
  loginFailure,
  untagged,
  unstable,
  skipped,
];

const history: RunHistory = {
  "2": buildHistory([
    ["ui-run-1", "failed"],
    ["ui-run-0", "passed"],
  ]),
  "3": buildHistory([
    ["ui-run-1", "failed"],
    ["ui-run-0", "failed"],
    ["ui-run-00", "failed"],
  ]),
  "4": buildHistory([
    ["ui-run-1", "failed"],
    ["ui-run-0", "failed"],
  ]),
};

const viewOf = (detail: ReturnType<typeof buildRunDetail>) =>
  frontendViewHandler(detail, {
    majorTags: catalog.majorTags,
    tagTests: new Map([["regression", new Set([5])]]),
    history,
  });

let detailsAsked: string[][] = [];

/** GET /v1/integrations with Jira configured or not. */
const integrations = (jiraConfigured: boolean) => () =>
  jsonResponse({
    jira: {
      configured: jiraConfigured,
      kind: jiraConfigured ? "real" : null,
      origin: jiraConfigured ? "https://jira.example.com" : null,
      requirementsSync: false,
    },
    spira: { configured: false, kind: null, origin: null },
    sync: {
      state: "never",
      progress: null,
      startedAt: null,
      finishedAt: null,
      lastSuccessAt: null,
      error: null,
    },
  });

function mock(overrides: Parameters<typeof mockApi>[0] = {}) {
  return mockApi({
    "/v1/catalog": () => jsonResponse(catalog),
    "/v1/test-runs": () => jsonResponse(buildRunPage([])),
    "/v1/test-runs/ui-run-1/view": viewOf(buildRunDetail(results)),
    "/v1/integrations": integrations(true),
    "/v1/jira/details": (_url, init) => {
      detailsAsked.push(JSON.parse(String(init?.body)) as string[]);
      return jsonResponse([
        { key: "NXL-123", fields: { summary: XSS, status: { name: "In Progress" } } },
      ]);
    },
    "/v1/dtag": () =>
      jsonResponse({
        byTag: {
          regression: {
            id: 9,
            tests: [{ id: 5, name: "No major tag", taggedTestId: 31 }],
            test_ids: [5],
          },
        },
        options: [{ text: "regression", value: 9 }],
      }),
    ...overrides,
  });
}

const box = (label: string) => screen.getByRole("region", { name: label });
const hide = (status: string) => screen.getByRole("switch", { name: `Hide ${status} results` });
const shownIds = () =>
  screen.queryAllByRole("article").map((card) => card.getAttribute("aria-label")?.split(" ")[0]);

async function open(path = "/test_runs/ui-run-1") {
  const view = renderApp(path);
  await screen.findByRole("dialog", { name: "ui-run-1" }, { timeout: 5000 });
  return view;
}

let restoreLayout: () => void;
beforeAll(async () => {
  restoreLayout = stubClientHeight(4000);
  await import("../TestReportsPage");
}, 60_000);
afterAll(() => restoreLayout());

describe("Frontend results dialog", () => {
  it("shows skeletons while the run loads, then 'Error occurred fetching results' on failure", async () => {
    let fail: (response: Response) => void = () => undefined;
    mock({ "/v1/test-runs/ui-run-1/view": () => new Promise<Response>((r) => (fail = r)) });
    await open();
    expect(screen.getByLabelText("Loading results")).toBeInTheDocument();
    fail(errorResponse(404, "not_found", "No test run with key ui-run-1."));
    expect(await screen.findByText("Error occurred fetching results")).toBeInTheDocument();
    // Under the spec's words, the server's reason: a stale or mistyped link says so.
    expect(screen.getByText("No test run with key ui-run-1.")).toBeInTheDocument();
  });

  it("shows what the run's report said that was stored otherwise, and nothing when all is well", async () => {
    const warning =
      "jest-junit.xml: the report's totals say 6 tests, but it lists 7 tests; the 7 test cases listed are stored.";
    mock({
      "/v1/test-runs/ui-run-1/view": viewOf({ ...buildRunDetail(results), warnings: [warning] }),
    });
    const view = await open();
    const alert = await screen.findByRole("status", { name: "Report warnings" });
    expect(alert).toHaveTextContent(warning);
    view.unmount();
    mock();
    await open();
    await screen.findAllByRole("article");
    expect(screen.queryByRole("status", { name: "Report warnings" })).not.toBeInTheDocument();
  });

  it("names the run's facts once each: a run named for its time does not repeat it", async () => {
    const named = { test_run_name: "2026-05-01 08:00:00 UTC", created_at: "2026-05-01T08:00:00Z" };
    mock({ "/v1/test-runs/ui-run-1/view": viewOf(buildRunDetail(results, named)) });
    await open();
    const facts = await screen.findByText(/^2026-05-01 08:00:00 UTC · /);
    expect(facts.textContent).toBe(
      "2026-05-01 08:00:00 UTC · dev1.nextgen.example.com · NextGen · daily-robot · master",
    );
  });

  it("shows the info boxes, and opens on the failures: Hide on for passed, skipped, unstable", async () => {
    mock();
    await open();
    await screen.findAllByRole("article");
    expect(within(box("Total")).getByText("7")).toBeInTheDocument();
    // The run's wall-clock time, and the tests' times summed, labelled as such.
    expect(within(box("Total Duration")).getByText("1h 2m 3s")).toBeInTheDocument();
    expect(within(box("Total Duration")).getByText("Summed test time 8h 39m 36s")).toBeVisible();
    expect(within(box("Passed")).getByText("1")).toBeInTheDocument();
    expect(within(box("Failed")).getByText("4")).toBeInTheDocument();
    expect(within(box("Skipped")).getByText("1")).toBeInTheDocument();
    expect(within(box("Unstable")).getByText("1")).toBeInTheDocument();
    expect(hide("passed")).toBeChecked();
    expect(hide("skipped")).toBeChecked();
    expect(hide("unstable")).toBeChecked();
    expect(hide("failed")).not.toBeChecked();
    await waitFor(() => expect(shownIds()).toEqual(["TC2", "TC3", "TC4", "TC5"]));
  });

  it("Hide switches show and hide their results and keep the choice in the URL", async () => {
    mock();
    const { router } = await open();
    await screen.findAllByRole("article");
    await userEvent.click(hide("passed"));
    await waitFor(() => expect(shownIds()).toEqual(["TC1", "TC2", "TC3", "TC4", "TC5"]));
    expect(router.state.location.search).toBe("?hide=skipped%2Cunstable");
    await userEvent.click(hide("failed"));
    await waitFor(() => expect(shownIds()).toEqual(["TC1"]));
    await userEvent.click(hide("skipped"));
    await userEvent.click(hide("unstable"));
    await waitFor(() => expect(shownIds()).toEqual(["TC1", "TC6", "TC7"]));
    expect(router.state.location.search).toBe("?hide=failed");
  });

  it("shows the failures of a chosen cause, unstable ones too, whatever was hidden", async () => {
    const group = {
      id: 41,
      fingerprint: "aaaa000011112222",
      errorType: "Error",
      message: "Sometimes fails",
      frame: null,
      count: 1,
      toInvestigate: 1,
      tests: [6],
      isNew: false,
      isRegression: true,
      firstSeen: { runKey: "ui-run-0", at: "2026-05-01T00:00:00.000Z" },
      defect: DEFAULT_DEFECT,
    };
    mock({
      "/v1/runs/ui-run-1/failure-groups": () => jsonResponse([group]),
      "/v1/runs/ui-run-1/failure-causes": () => jsonResponse([]),
    });
    const { router } = await open("/test_runs/ui-run-1?hide=passed,failed,skipped,unstable");
    await screen.findByText(/Nothing to show/);
    expect(hide("unstable")).toBeChecked();
    await userEvent.click(await screen.findByRole("combobox", { name: "Failure group" }));
    await userEvent.click(await screen.findByRole("option", { name: "1 × Sometimes fails" }));
    await waitFor(() => expect(hide("unstable")).not.toBeChecked());
    expect(hide("failed")).not.toBeChecked();
    expect(hide("passed")).toBeChecked();
    expect(new URLSearchParams(router.state.location.search).get("hide")).toBe("passed,skipped");
    expect(new URLSearchParams(router.state.location.search).get("group")).toBe("41");
  });

  it("copies a link to the view it shows, filters included", async () => {
    const user = userEvent.setup();
    mock();
    await open("/test_runs/ui-run-1?hide=failed&failures=new_failure");
    await user.click(screen.getByRole("button", { name: "Copy link" }));
    await waitFor(async () =>
      expect(await navigator.clipboard.readText()).toBe(
        `${window.location.origin}/test_runs/ui-run-1?hide=failed&failures=new_failure`,
      ),
    );
    expect(await screen.findByText("Link copied")).toBeInTheDocument();
  });

  it("restores the Hide switches from a shared link", async () => {
    mock();
    await open("/test_runs/ui-run-1?hide=failed");
    await screen.findAllByRole("article");
    expect(hide("failed")).toBeChecked();
    expect(hide("passed")).not.toBeChecked();
    await waitFor(() => expect(shownIds()).toEqual(["TC1", "TC6", "TC7"]));
  });

  it("groups failures by major tag, most first, with Unknown, and copies them", async () => {
    const user = userEvent.setup();
    mock();
    await open();
    const summary = within(await screen.findByRole("region", { name: "Failed Summary" }));
    const lines = (await summary.findAllByRole("listitem")).map((li) => li.textContent);
    // TC3 carries both tags: it counts once, under its first major tag. @consent leads by count,
    // though @login comes first in the catalogue.
    expect(lines).toEqual(["@consent2", "@login1", "Unknown1"]);
    await user.click(summary.getByRole("button", { name: "Copy Summary" }));
    await waitFor(async () =>
      expect(await navigator.clipboard.readText()).toBe("@consent: 2\n@login: 1\nUnknown: 1"),
    );
    await user.click(summary.getByRole("button", { name: "Copy the failed ids of @consent" }));
    await waitFor(async () => expect(await navigator.clipboard.readText()).toBe("TC2, TC3"));
  });

  it("filters the failure list to New Failure or Failed for three days", async () => {
    mock();
    const { router } = await open();
    await screen.findAllByRole("article");
    await userEvent.click(screen.getByRole("combobox", { name: "Filter Failure List" }));
    await userEvent.click(screen.getByRole("option", { name: "New Failure" }));
    await waitFor(() => expect(shownIds()).toEqual(["TC2"]));
    expect(router.state.location.search).toBe("?failures=new_failure");
    await userEvent.click(screen.getByRole("combobox", { name: "Filter Failure List" }));
    await userEvent.click(screen.getByRole("option", { name: "Failed for three days" }));
    await waitFor(() => expect(shownIds()).toEqual(["TC3"]));
    await userEvent.click(screen.getByRole("combobox", { name: "Filter Failure List" }));
    await userEvent.click(screen.getByRole("option", { name: "All results" }));
    await waitFor(() => expect(shownIds()).toEqual(["TC2", "TC3", "TC4", "TC5"]));
  });

  it("filters by dynamic tag, or by the results' own tags when the tag API is missing", async () => {
    mock();
    const { router } = await open("/test_runs/ui-run-1?tag=regression");
    await waitFor(() => expect(shownIds()).toEqual(["TC5"]));
    expect(router.state.location.search).toBe("?tag=regression");

    mock({ "/v1/dtag": () => errorResponse(404, "not_found", "Route GET:/v1/dtag not found") });
    await open("/test_runs/ui-run-1?hide=");
    await screen.findByText(/Dynamic tags could not be loaded/);
    await userEvent.click(screen.getByRole("combobox", { name: "Dynamic tags" }));
    const options = screen.getAllByRole("option").map((o) => o.textContent);
    // The server offers the dynamic tags too; only the cards' tag chips need the tag API.
    expect(options).toEqual(["@consent", "@login", "@smoke", "regression"]);
    await userEvent.click(screen.getByRole("option", { name: "@smoke" }));
    await waitFor(() => expect(shownIds()).toEqual(["TC5"]));
  });

  it("shows each result's card: screenshot, history, facts, error with ticket links", async () => {
    mock();
    await open();
    const card = within(await screen.findByRole("article", { name: /^TC2 / }));
    expect(card.getByRole("img", { name: "Last screenshot of TC2" })).toHaveAttribute(
      "src",
      "/v1/objects/attachments/2026/05/shot.png",
    );
    expect(
      card.getByRole("heading", { name: /^Consent is signed\s*—\s*Consent$/ }),
    ).toBeInTheDocument();
    expect(card.getByText("1m 5s")).toBeInTheDocument();
    expect(card.getByText("126.0.1")).toBeInTheDocument();
    expect(card.getByText("0123456789")).toBeInTheDocument();
    const recent = await card.findByRole("list", { name: "Recent results" });
    expect(within(recent).getByRole("img", { name: /Failed .* \(this run\)/ })).toBeInTheDocument();
    expect(
      within(recent).getByRole("link", { name: /Passed on .* in run ui-run-0/ }),
    ).toHaveAttribute("href", "/test_runs/ui-run-0/t-ui-run-0");
    const tickets = card.getAllByRole("link", { name: "NXL-123" });
    expect(tickets[0]).toHaveAttribute("href", "https://jira.example.com/browse/NXL-123");
    expect(card.getAllByRole("link", { name: "NXL-7" }).length).toBeGreaterThan(0);
    expect(card.getByRole("link", { name: "History" })).toHaveAttribute("href", "/history/2");
    const rerun = within(box("Failed")).getByRole("button", { name: "Rerun failed" });
    expect(rerun).toBeDisabled();
  });

  it("looks up the run's tickets in one call and shows each one's status and summary", async () => {
    detailsAsked = [];
    mock();
    await open();
    const card = within(await screen.findByRole("article", { name: /^TC2 / }));
    const lines = await card.findAllByTestId("ticket-detail");
    expect(lines.map((line) => line.textContent)).toEqual([
      `NXL-123In Progress${XSS}`,
      "NXL-7not found in Jira",
    ]);
    // Jira's summary is text: no element made of it.
    expect(card.queryByRole("img", { name: "x" })).toBeNull();
    expect(detailsAsked).toEqual([["NXL-123", "NXL-7"]]);
  });

  it("says once why ticket details are missing when Jira fails", async () => {
    mock({
      "/v1/jira/details": () =>
        errorResponse(502, "tracker_failed", "Jira did not answer: connect ECONNREFUSED."),
    });
    await open();
    expect(
      await screen.findByText(/Ticket details unavailable: Jira did not answer/),
    ).toBeInTheDocument();
    const card = within(await screen.findByRole("article", { name: /^TC2 / }));
    expect(card.getAllByRole("link", { name: "NXL-123" }).length).toBeGreaterThan(0);
  });

  it("asks nothing of Jira when it is not configured, and shows the bare ticket links", async () => {
    detailsAsked = [];
    const calls = mock({ "/v1/integrations": integrations(false) });
    await open();
    const card = within(await screen.findByRole("article", { name: /^TC2 / }));
    expect(card.getAllByRole("link", { name: "NXL-123" }).length).toBeGreaterThan(0);
    const asked = () => calls.mock.calls.map(([input]) => String(input));
    await waitFor(() => expect(asked().some((url) => url.includes("/v1/integrations"))).toBe(true));
    expect(card.queryByText("not found in Jira")).toBeNull();
    expect(screen.queryByText(/Ticket details unavailable/)).toBeNull();
    expect(detailsAsked).toEqual([]);
  });

  it("shows a skipped result's hourglass and pending reason, and user text as text", async () => {
    mock();
    const { container } = await open("/test_runs/ui-run-1?hide=");
    const card = within(await screen.findByRole("article", { name: /^TC7 / }));
    expect(card.getByText("Pending: env down")).toBeInTheDocument();
    expect(card.getByText("Skipped")).toBeInTheDocument();
    expect(screen.getByText(XSS)).toBeInTheDocument();
    expect(container.ownerDocument.querySelector("img[src='x']")).toBeNull();
  });

  it("shows a result's dynamic tags and opens the tag editor in place", async () => {
    mock();
    await open();
    const card = within(await screen.findByRole("article", { name: /^TC5 / }));
    const dynamic = await card.findByRole("list", { name: "Dynamic tags" });
    expect(within(dynamic).getByText("regression")).toBeInTheDocument();
    expect(card.getByRole("list", { name: "Report tags" })).toHaveTextContent("@smoke");
    await userEvent.click(card.getByRole("button", { name: "Edit tags of TC5" }));
    expect(await card.findByRole("form", { name: "Dynamic tags of TC5" })).toBeInTheDocument();
  });
});
