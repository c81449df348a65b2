import { fireEvent, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { buildCatalog } from "../../../test/catalog-factory";
import { errorResponse, jsonResponse, mockApi } from "../../../test/mock-api";
import { renderUi } from "../../../test/render-ui";
import { buildFailedResult, buildFrontendResult } from "../../../test/frontend-run-fixtures";
import { buildTestDetail } from "../../../test/run-fixtures";
import { TestDetailDialog } from "./TestDetailDialog";

// MUI's dialogs are slow to render in jsdom; these tests wait for real renders.
vi.setConfig({ testTimeout: 30_000 });

const XSS = "<b>bold</b><script>alert(1)</script>";
const step = (action: string, passed: boolean | null, codeLocation: string | null = null) => ({
  action,
  passed,
  codeLocation,
  duration_ms: 10,
});

const failedDetail = buildTestDetail({
  test_run_key: "ui-run-1",
  test_run_test_id: "login#0",
  test_id: 321,
  title: "Site user logs in",
  status: "failed",
  passed: false,
  derived_status: "failed",
  error_message: `Timed out, see NXL-42 ${XSS}`,
  tickets: ["NXL-42"],
  description: "Opens the site and signs in.",
  json_before_steps: [step("Open the browser", true, "support/hooks.ts:12")],
  json_steps: [
    step("Given the login page", true, "features/login.feature:3"),
    step("When I sign in", true, "features/login.feature:4"),
    step("Then I see the dashboard", false, "features/login.feature:5"),
    step("And I sign out", null, "features/login.feature:6"),
  ],
  screenshots: [
    {
      id: 1,
      description: "Login page",
      screenshotpath: "attachments/a.png",
      timestamp: "2026-05-01T08:00:05.000Z",
      step_index: 0,
      content_type: "image/png",
    },
    {
      id: 2,
      description: "After sign-in",
      screenshotpath: "attachments/b.png",
      timestamp: "2026-05-01T08:00:09.000Z",
      step_index: 2,
      content_type: "image/png",
    },
  ],
  error_screenshot: "attachments/b.png",
  body: "Feature: Login\n  Scenario: Site user logs in",
});

function renderDialog(
  answer: () => Response | Promise<Response>,
  onOpenAttempt: (testKey: string) => void = () => {},
) {
  mockApi({
    "/v1/catalog": () => jsonResponse(buildCatalog()),
    "/v1/test-detail/ui-run-1/login%230": answer,
  });
  return renderUi(
    <TestDetailDialog
      runKey="ui-run-1"
      testKey="login#0"
      onClose={() => {}}
      onOpenAttempt={onOpenAttempt}
    />,
  );
}

const section = (name: string) => within(screen.getByRole("region", { name }));

describe("Frontend test detail dialog", () => {
  it("shows steps, before steps, screenshots with the steps before each, error shot and script", async () => {
    renderDialog(() => jsonResponse(failedDetail));
    expect(
      await screen.findByRole("dialog", { name: /TC321 · Site user logs in/ }, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(section("Description").getByText("Opens the site and signs in.")).toBeInTheDocument();

    const before = section("Before steps").getByRole("list", { name: "Before steps" });
    expect(within(before).getByText("Open the browser")).toBeInTheDocument();
    expect(within(before).getByText("support/hooks.ts:12")).toBeInTheDocument();
    const steps = within(section("Scenario steps").getByRole("list", { name: "Scenario steps" }));
    const rows = steps.getAllByRole("listitem");
    expect(rows.map((row) => row.textContent)).toEqual([
      "1Given the login pagefeatures/login.feature:3",
      "2When I sign infeatures/login.feature:4",
      "3Then I see the dashboardfeatures/login.feature:5",
      "4And I sign outfeatures/login.feature:6",
    ]);
    expect(within(rows[2]!).getByLabelText("Failed")).toBeInTheDocument();
    expect(within(rows[3]!).getByLabelText("Not run")).toBeInTheDocument();

    const shots = section("Screenshots");
    const first = within(shots.getByRole("list", { name: "Steps before screenshot 1" }));
    expect(first.getAllByRole("listitem").map((li) => li.textContent)).toEqual([
      "1Given the login pagefeatures/login.feature:3",
    ]);
    const second = within(shots.getByRole("list", { name: "Steps before screenshot 2" }));
    expect(second.getAllByRole("listitem")).toHaveLength(2);
    const after = within(shots.getByRole("list", { name: "Steps after the last screenshot" }));
    expect(after.getByText("And I sign out")).toBeInTheDocument();
    expect(shots.getByRole("img", { name: "Login page" })).toHaveAttribute(
      "src",
      "/v1/objects/attachments/a.png",
    );
    expect(shots.getByText(/2026-05-01 08:00:05 UTC/)).toBeInTheDocument();

    expect(
      section("Error screenshot").getByRole("img", { name: "Error screenshot" }),
    ).toHaveAttribute("src", "/v1/objects/attachments/b.png");
    expect(section("Script").getByText(/Scenario: Site user logs in/)).toBeInTheDocument();
    expect((await screen.findAllByRole("link", { name: "NXL-42" }))[0]).toHaveAttribute(
      "href",
      "https://jira.example.com/browse/NXL-42",
    );
    expect(screen.getByText(/<script>alert\(1\)<\/script>/)).toBeInTheDocument();
    expect(document.querySelector("script, b")).toBeNull();
  });

  it("says when the error screenshot or the script is missing", async () => {
    renderDialog(() => jsonResponse(buildTestDetail({ test_run_key: "ui-run-1" })));
    await screen.findByRole("dialog", { name: /TC321/ }, { timeout: 5000 });
    expect(section("Error screenshot").getByText("No error screenshot found.")).toBeInTheDocument();
    // No Before step failed: the script is simply not recorded, nothing is blamed on 'Before'.
    expect(section("Script").getByText("No script recorded")).toBeInTheDocument();
    expect(screen.queryByText(/Probably failed at 'Before' action/)).toBeNull();
    expect(section("Scenario steps").getByText("No steps recorded.")).toBeInTheDocument();
  });

  it("blames the 'Before' action for a missing script only when a Before step failed", async () => {
    const before = [
      { action: "Given the site is up", passed: true, codeLocation: null, duration_ms: 5 },
      { action: "And I sign in", passed: false, codeLocation: null, duration_ms: 9 },
    ];
    renderDialog(() =>
      jsonResponse(buildTestDetail({ test_run_key: "ui-run-1", json_before_steps: before })),
    );
    await screen.findByRole("dialog", { name: /TC321/ }, { timeout: 5000 });
    expect(
      section("Script").getByText("Not found! Probably failed at 'Before' action"),
    ).toBeInTheDocument();
  });

  it("says 'Error occurred fetching test details...' and why when the detail cannot be read", async () => {
    renderDialog(() => errorResponse(404, "not_found", "No test login#0 in test run ui-run-1."));
    const alert = await screen.findByRole("alert", {}, { timeout: 5000 });
    expect(alert).toHaveTextContent("Error occurred fetching test details...");
    // The server's reason: a shared link to a result that is gone says which.
    expect(alert).toHaveTextContent("No test login#0 in test run ui-run-1.");
  });

  it("lists the test's attempts in the run (a rerun's), the shown one marked, each openable", async () => {
    // The server sends the test's attempts with the shown one's detail, the retry listed first
    // here: the dialog orders them by attempt.
    const attempts = [
      buildFrontendResult({ test_run_test_id: "login#1", test_id: 321, attempt: 1, flaky: true }),
      buildFailedResult({
        test_run_test_id: "login#0",
        test_id: 321,
        attempt: 0,
        is_final: false,
        error_message: "Timed out waiting for the dashboard",
      }),
    ];
    const opened: string[] = [];
    renderDialog(
      () => jsonResponse({ ...failedDetail, attempts }),
      (key) => opened.push(key),
    );
    const table = await screen.findByRole(
      "table",
      { name: "Attempts of TC321" },
      { timeout: 5000 },
    );
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringMatching(/^First try · shown.*Failed.*Timed out waiting for the dashboard$/),
      expect.stringMatching(/^Retry 1 \(counts\).*Passed.*flaky.*–$/),
    ]);
    expect(rows[0]).toHaveAttribute("aria-current", "true");
    fireEvent.click(within(rows[1]!).getByRole("button", { name: "Retry 1 (counts)" }));
    expect(opened).toEqual(["login#1"]);
  });

  it("shows no attempts for a test run once", async () => {
    renderDialog(() =>
      jsonResponse({
        ...failedDetail,
        attempts: [buildFailedResult({ test_run_test_id: "login#0", test_id: 321 })],
      }),
    );
    await screen.findByRole("dialog", { name: /TC321/ }, { timeout: 5000 });
    await screen.findByText("Opens the site and signs in.");
    expect(screen.queryByRole("region", { name: "Attempts" })).toBeNull();
  });
});
