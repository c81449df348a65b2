import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { buildCatalog } from "../../test/catalog-factory";
import { buildMe } from "../../test/me-factory";
import { jsonResponse, mockApi } from "../../test/mock-api";
import { renderUi } from "../../test/render-ui";
import { TraceabilityMatrixPage } from "./TraceabilityMatrixPage";

/** The source bar when the requirements come from Spira: its sync, progress and last success. */

const MATRIX = {
  source: {
    kind: "spira",
    fileName: "Spira project 12",
    importedAt: "2026-11-25T09:00:05Z",
  },
  rows: [
    {
      rmsDetail: {
        id: 1,
        rms: "RQ:2",
        summary: "Sign in",
        epic: "Access",
        type: "Feature",
        note: "",
        noTestNeeded: 0,
      },
      testRuns: [],
      linkedBugs: [],
    },
  ],
};

const SYNC = {
  tracker: "spira",
  state: "failed",
  progress: null,
  startedAt: "2026-11-26T09:00:00Z",
  finishedAt: "2026-11-26T09:00:05Z",
  lastSuccessAt: "2026-11-25T09:00:05Z",
  error:
    "Spira answered 404 to GET /Services/v7_0/RestService.svc/projects/12/requirements: Access Denied.",
};
const INTEGRATIONS = {
  jira: { configured: false, kind: null, origin: null, requirementsSync: false },
  spira: {
    configured: true,
    kind: "real",
    origin: "https://spira.example.com",
    requirementsSync: true,
  },
  sync: SYNC,
};

describe("Traceability Matrix source bar: requirements from Spira", { timeout: 60_000 }, () => {
  it("names the Spira sync, says why it failed, and syncs on demand with progress", async () => {
    const posted: string[] = [];
    mockApi({
      "/v1/catalog": () => jsonResponse(buildCatalog()),
      "/v1/me": () => jsonResponse(buildMe()),
      "/v1/traceability-matrix": () => jsonResponse(MATRIX),
      "/v1/integrations": () => jsonResponse(INTEGRATIONS),
      "/v1/integrations/sync": (url) => {
        posted.push(url.pathname);
        return jsonResponse(
          {
            ...INTEGRATIONS,
            sync: { ...SYNC, state: "running", progress: "500 requirements read", error: null },
          },
          202,
        );
      },
    });
    renderUi(<TraceabilityMatrixPage />, { path: "/traceability-matrix" });
    expect(await screen.findByText(/Source: Spira sync \(Spira project 12\)/)).toBeVisible();
    expect(screen.getByTestId("sync-state")).toHaveTextContent(
      /^Last Spira sync failed .*; last successful /,
    );
    expect(
      screen.getByText(
        /The last sync failed and the matrix keeps the previous data: Spira answered 404/,
      ),
    ).toBeVisible();
    await userEvent.click(screen.getByRole("button", { name: "Sync now" }));
    await waitFor(() => expect(posted).toEqual(["/v1/integrations/sync"]));
    expect(await screen.findByText("Spira sync running: 500 requirements read")).toBeVisible();
    expect(screen.queryByText(/Jira sync/)).toBeNull();
  });
});
