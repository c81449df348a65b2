import type { BackendRunDetail } from "@assay/core";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCatalog } from "../../../test/catalog-factory";
import { stubClientHeight } from "../../../test/layout-stub";
import { errorResponse, jsonResponse, mockApi } from "../../../test/mock-api";
import { renderUi } from "../../../test/render-ui";
import { buildBackendResult, buildBackendRun } from "../../../test/run-fixtures";
import { backendViewHandler } from "../../../test/run-view-fake";
import { BackendResultsDialog } from "./BackendResultsDialog";

// Ticket details in the Backend results dialog: an opened failure's tickets with Jira's status
// chip and summary (text only), looked up in one batched call, only when Jira is configured.

const XSS = "<img src=x onerror=alert(1)>";
const catalog = buildCatalog();
const ticketed = buildBackendResult({
  test_run_test_id: "visits#0",
  test_id: 15,
  title: "GET /visits",
  status: "failed",
  passed: false,
  error_message: { name: "AssertionError", message: "known bug nxl-42, see NXL-7", stack: null },
});
const run: BackendRunDetail = {
  run: buildBackendRun({ total: 1, passed: 0, failed: 1 }),
  warnings: [],
  results: [ticketed],
};

const integrations = (configured: boolean) =>
  jsonResponse({
    jira: {
      configured,
      kind: configured ? "real" : null,
      origin: configured ? "https://jira.example.com" : null,
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

let asked: unknown[] = [];
function mock(jira: boolean, details?: () => Response) {
  asked = [];
  mockApi({
    "/v1/catalog": () => jsonResponse(catalog),
    "/v1/api-test-run/api-run-1/view": backendViewHandler(run, { majorTags: catalog.majorTags }),
    "/v1/api-test-detail/api-run-1/visits%230": () =>
      jsonResponse({ ...ticketed, apiRequests: [], attempts: [ticketed] }),
    "/v1/integrations": () => integrations(jira),
    "/v1/jira/details": (_url, init) => {
      asked.push(JSON.parse(String(init?.body)));
      return (
        details?.() ??
        jsonResponse([{ key: "NXL-42", fields: { summary: XSS, status: { name: "Done" } } }])
      );
    },
  });
}

async function openError() {
  renderUi(<BackendResultsDialog runKey="api-run-1" open onClose={() => undefined} />, {
    path: "/test_runs/api-run-1?be=1",
    route: "/test_runs/:key?/:test_key?",
  });
  const result = within(await screen.findByRole("article", { name: /TC15/ }));
  await userEvent.click(result.getByRole("button", { expanded: false }));
  return within(await result.findByRole("region", { name: "Error" }));
}

let restoreLayout: () => void;
beforeAll(() => {
  restoreLayout = stubClientHeight(800);
});
afterAll(() => restoreLayout());

describe("BackendResultsDialog ticket details", { timeout: 30_000 }, () => {
  it("shows each ticket's Jira status chip and summary as text, asked in one call", async () => {
    mock(true);
    const error = await openError();
    const lines = await error.findAllByTestId("ticket-detail");
    await within(lines[0]!).findByText("Done");
    expect(lines.map((line) => line.textContent)).toEqual([
      `NXL-42Done${XSS}`,
      "NXL-7not found in Jira",
    ]);
    expect(error.queryByRole("img", { name: "x" })).toBeNull();
    expect(asked).toEqual([["NXL-42", "NXL-7"]]);
  });

  it("says once why details are missing when Jira fails, keeping the links", async () => {
    mock(true, () => errorResponse(502, "tracker_failed", "Jira did not answer: timeout."));
    const error = await openError();
    expect(
      await error.findByText(/Ticket details unavailable: Jira did not answer/),
    ).toBeInTheDocument();
    expect(error.getAllByRole("link", { name: "NXL-42" }).length).toBeGreaterThan(0);
  });

  it("asks nothing of Jira when it is not configured: the message's links stay", async () => {
    mock(false);
    const error = await openError();
    expect(await error.findByRole("link", { name: "NXL-42" })).toBeInTheDocument();
    expect(error.queryByTestId("ticket-detail")).toBeNull();
    expect(asked).toEqual([]);
  });
});
