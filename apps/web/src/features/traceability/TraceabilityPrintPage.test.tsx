import type { TraceabilityMatrix, TraceabilityRow } from "@assay/core";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { buildCatalog } from "../../test/catalog-factory";
import { errorResponse, jsonResponse, mockApi } from "../../test/mock-api";
import { renderApp } from "../../test/render-app";
import { renderUi } from "../../test/render-ui";
import { TraceabilityPrintPage } from "./TraceabilityPrintPage";

function row(n: number, extra: Partial<TraceabilityRow> = {}): TraceabilityRow {
  return {
    rmsDetail: {
      id: n,
      rms: `RMS-${n}`,
      summary: `Requirement ${n}`,
      epic: "Access",
      type: "Story",
      note: "",
      noTestNeeded: 0,
    },
    testRuns: [],
    linkedBugs: [],
    ...extra,
  };
}

// 40 rows: more than the screen's first page of 25, all printed.
const ROWS = Array.from({ length: 40 }, (_, i) => row(i + 1));
ROWS[0] = row(1, {
  testRuns: [
    {
      testId: 11,
      name: "Signs in",
      filePath: null,
      suitePath: [],
      status: "passed",
      errorMessage: null,
    },
    {
      testId: 12,
      name: "Locks out",
      filePath: null,
      suitePath: [],
      status: null,
      errorMessage: null,
      link: { linkedBy: "lead@example.com", linkedAt: "2026-11-25T10:00:00Z" },
    },
  ],
  linkedBugs: [{ key: "NXL-7", fields: { summary: "Stored", status: { name: "Open" } } }],
});
ROWS[1] = row(2, { testRuns: [{ ...ROWS[0]!.testRuns[0]!, testId: 13, status: "failed" }] });
ROWS[2] = {
  ...row(3),
  rmsDetail: { ...row(3).rmsDetail, noTestNeeded: 1, note: "Manual OQ <script>" },
};

const MATRIX: TraceabilityMatrix = {
  source: { kind: "jira", fileName: "project = NXL", importedAt: "2026-11-26T06:00:00Z" },
  rows: ROWS,
};

const integrations = (jira: boolean) => ({
  jira: { configured: jira, kind: jira ? "demo" : null, origin: null, requirementsSync: jira },
  spira: { configured: false, kind: null, origin: null },
  sync: {
    state: "failed",
    progress: null,
    startedAt: "2026-11-26T07:00:00Z",
    finishedAt: "2026-11-26T07:00:05Z",
    lastSuccessAt: "2026-11-26T06:00:00Z",
    error: "Jira answered 503",
  },
});

const renderPrint = () =>
  renderUi(<TraceabilityPrintPage />, { path: "/traceability-matrix/print" });

afterEach(() => vi.restoreAllMocks());

describe("TraceabilityPrintPage", { timeout: 30_000 }, () => {
  it("prints every row with the data's time, its source and the sync that failed", async () => {
    mockApi({
      "/v1/catalog": () => jsonResponse(buildCatalog()),
      "/v1/traceability-matrix": () => jsonResponse(MATRIX),
      "/v1/integrations": () => jsonResponse(integrations(true)),
      "/v1/jira/details": () =>
        jsonResponse([
          { key: "NXL-7", fields: { summary: "From Jira", status: { name: "Done" } } },
        ]),
    });
    renderPrint();

    expect(await screen.findAllByTestId("print-row")).toHaveLength(40);
    // The sync's line comes with GET /v1/integrations.
    await waitFor(() => expect(screen.getAllByTestId("report-fact")).toHaveLength(4));
    const facts = screen.getAllByTestId("report-fact").map((f) => f.textContent);
    expect(facts[0]).toMatch(/^Data read from the server \d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    expect(facts[1]).toBe("Source: Jira sync (project = NXL), 2026-11-26 06:00:00 UTC");
    expect(facts[2]).toContain("Last Jira sync failed");
    expect(facts[2]).toContain("Jira answered 503");
    expect(facts[3]).toBe(
      "Linked bugs: summary and status from the demo's built-in Jira when this report was opened.",
    );
    const totals = screen.getByTestId("report-totals").textContent;
    expect(totals).toContain("Total RMS: 40");
    expect(totals).toContain("Active RMS: 39");
    expect(totals).toContain("Coverage (active RMS): 5.13%");
    expect(totals).toContain("Coverage (all RMS): 5.00%");

    const [first, second, third] = screen.getAllByTestId("print-row").map((tr) => within(tr));
    expect(first!.getByText(/2 tests: 1 passed, 0 failed, 1 not run/)).toBeInTheDocument();
    expect(first!.getByText(/not run: Locks out/)).toBeInTheDocument();
    expect(first!.getByText(/linked by lead@example.com/)).toBeInTheDocument();
    expect(await first!.findByText(/\[Done\] From Jira/)).toBeInTheDocument();
    expect(second!.getByText(/failed: Signs in/)).toBeInTheDocument();
    expect(second!.getByText("1 test: 0 passed, 1 failed, 0 not run")).toBeInTheDocument();
    expect(third!.getByText("No Automation for this RMS.")).toBeInTheDocument();
    expect(third!.getByText(/Manual OQ <script>/)).toBeInTheDocument();
    expect(document.querySelector("main script, [data-testid=print-row] script")).toBeNull();
  });

  it("prints the stored bug status without Jira, and has Print and Back controls", async () => {
    const print = vi.spyOn(window, "print").mockImplementation(() => undefined);
    mockApi({
      "/v1/catalog": () => jsonResponse(buildCatalog()),
      "/v1/traceability-matrix": () => jsonResponse(MATRIX),
      "/v1/integrations": () => jsonResponse(integrations(false)),
    });
    renderPrint();
    expect(await screen.findByText(/\[Open\] Stored/)).toBeInTheDocument();
    expect(await screen.findByText(/Jira is not configured\)\.$/)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to the matrix" })).toHaveAttribute(
      "href",
      "/traceability-matrix",
    );
    await userEvent.click(screen.getByRole("button", { name: "Print" }));
    expect(print).toHaveBeenCalledOnce();
  });

  it("says so when the matrix cannot be read", async () => {
    mockApi({
      "/v1/catalog": () => jsonResponse(buildCatalog()),
      "/v1/traceability-matrix": () => errorResponse(500, "internal", "Something failed."),
      "/v1/integrations": () => jsonResponse(integrations(false)),
    });
    renderPrint();
    expect(
      await screen.findByText(/An error occurred fetching the traceability matrix/),
    ).toBeInTheDocument();
  });

  it("is its own page at /traceability-matrix/print, without the sidebar layout", async () => {
    mockApi({
      "/v1/catalog": () => jsonResponse(buildCatalog()),
      "/v1/traceability-matrix": () => jsonResponse({ source: null, rows: [] }),
      "/v1/integrations": () => jsonResponse(integrations(false)),
    });
    renderApp("/traceability-matrix/print");
    expect(
      await screen.findByRole("heading", { level: 1, name: "Traceability Matrix Report" }),
    ).toBeVisible();
    expect(await screen.findByText("No requirements imported yet.")).toBeInTheDocument();
    expect(screen.getByTestId("report-totals").textContent).toContain("Coverage (all RMS): N/A");
    expect(screen.queryByRole("navigation")).not.toBeInTheDocument();
  });
});
