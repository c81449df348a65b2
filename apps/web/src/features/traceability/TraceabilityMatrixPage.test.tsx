import type { TraceabilityMatrix, TraceabilityRow } from "@assay/core";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { buildCatalog } from "../../test/catalog-factory";
import { buildMe } from "../../test/me-factory";
import { errorResponse, jsonResponse, mockApi } from "../../test/mock-api";
import { renderUi } from "../../test/render-ui";
import { TraceabilityMatrixPage } from "./TraceabilityMatrixPage";

let nextId = 1;
function row(
  rms: string,
  statuses: ("passed" | "failed" | null)[],
  extra: Partial<TraceabilityRow["rmsDetail"]> & { bugs?: TraceabilityRow["linkedBugs"] } = {},
): TraceabilityRow {
  const { bugs = [], ...detail } = extra;
  return {
    rmsDetail: {
      id: nextId++,
      rms,
      summary: `${rms} summary`,
      epic: "Access",
      type: "Story",
      note: "",
      noTestNeeded: 0,
      ...detail,
    },
    testRuns: statuses.map((status, i) => ({
      testId: 9100 + i,
      name: `Test ${i}`,
      filePath: i === 0 ? "features/login.feature" : null,
      suitePath: [],
      status,
      errorMessage: null,
    })),
    linkedBugs: bugs,
  };
}

const MATRIX: TraceabilityMatrix = {
  source: { kind: "file", fileName: "rms.csv", importedAt: "2026-11-20T08:00:00Z" },
  rows: [
    row("RMS-1", ["passed", "failed", null], {
      bugs: [{ key: "NXL-7", fields: { summary: "SSO loops", status: { name: "Open" } } }],
    }),
    row("RMS-2", ["passed"], { epic: "Billing" }),
    row("RMS-3", []),
    row("RMS-4", [], { noTestNeeded: 1, note: "Manual OQ" }),
    row("ERROR", []),
  ],
};

function installApi(matrix: TraceabilityMatrix, signedIn = true) {
  const puts: unknown[] = [];
  const fetchMock = mockApi({
    "/v1/catalog": () => jsonResponse(buildCatalog()),
    "/v1/me": () =>
      signedIn ? jsonResponse(buildMe()) : errorResponse(401, "unauthorized", "Sign in first."),
    "/v1/traceability-matrix": () => jsonResponse(matrix),
    "/v1/traceability/rms/1": (_url, init) => {
      const body = JSON.parse(String(init?.body)) as { note: string; noTestNeeded: 0 | 1 };
      puts.push(body);
      return jsonResponse({ ...matrix.rows[0]!.rmsDetail, ...body });
    },
  });
  return { fetchMock, puts };
}

const renderPage = () => renderUi(<TraceabilityMatrixPage />, { path: "/traceability-matrix" });
const rmsKeys = () =>
  screen.getAllByTestId("rms-row").map((tr) => within(tr).getAllByRole("cell")[0]!.textContent);

const INTEGRATIONS = {
  jira: { configured: true, kind: "demo", origin: "http://127.0.0.1:1", requirementsSync: true },
  spira: { configured: false, kind: null, origin: null },
  sync: {
    state: "failed",
    progress: null,
    startedAt: "2026-11-26T09:00:00Z",
    finishedAt: "2026-11-26T09:00:05Z",
    lastSuccessAt: "2026-11-25T09:00:05Z",
    error: "Jira answered 500 to POST /rest/api/3/search/jql: boom.",
  },
};

const item = (rms: string, summary: string, extra: Record<string, unknown> = {}) => ({
  rms,
  summary,
  note: "",
  noTestNeeded: 0,
  links: 0,
  changes: [],
  ...extra,
});
const PREVIEW = {
  added: { count: 1, items: [item("RMS-2", "Two")] },
  changed: { count: 1, items: [item("RMS-1", "One", { changes: ["summary"] })] },
  archived: {
    count: 1,
    items: [
      item("RMS-9102", "Export a report", {
        note: "Checked by hand each release",
        noTestNeeded: 1,
      }),
    ],
  },
  restored: { count: 0, items: [] },
  unchanged: 0,
};

describe("Traceability Matrix: source, sync, upload and export", { timeout: 60_000 }, () => {
  it("says why the last sync failed, syncs on demand, uploads a file and links the CSV", async () => {
    const posted: { path: string; body: unknown }[] = [];
    mockApi({
      "/v1/catalog": () => jsonResponse(buildCatalog()),
      "/v1/me": () => jsonResponse(buildMe()),
      "/v1/traceability-matrix": () => jsonResponse(MATRIX),
      "/v1/integrations": () => jsonResponse(INTEGRATIONS),
      "/v1/integrations/sync": (url, init) => {
        posted.push({ path: url.pathname, body: init?.body });
        return jsonResponse(
          { ...INTEGRATIONS, sync: { ...INTEGRATIONS.sync, state: "succeeded", error: null } },
          202,
        );
      },
      "/v1/traceability/rms/import": (url, init) => {
        const body = JSON.parse(String(init?.body)) as { dry_run: boolean };
        posted.push({ path: url.pathname, body });
        return jsonResponse({
          fileName: "rms.csv",
          dryRun: body.dry_run,
          importedAt: body.dry_run ? null : "2026-11-26T10:00:00Z",
          requirements: 2,
          bugs: 0,
          removed: 1,
          preview: PREVIEW,
        });
      },
    });
    renderPage();
    expect(
      await screen.findByText(
        /The last sync failed and the matrix keeps the previous data: Jira answered 500/,
      ),
    ).toBeVisible();
    expect(screen.getByText(/the demo's built-in Jira/)).toBeVisible();
    expect(screen.getByRole("link", { name: "Export CSV" })).toHaveAttribute(
      "href",
      "/v1/traceability-matrix/export.csv",
    );
    await userEvent.click(screen.getByRole("button", { name: "Sync now" }));
    await waitFor(() => expect(posted.map((p) => p.path)).toEqual(["/v1/integrations/sync"]));
    expect(await screen.findByText(/Last Jira sync succeeded/)).toBeVisible();
    const file = new File(["rms,summary\nRMS-1,One\nRMS-2,Two\n"], "rms.csv", { type: "text/csv" });
    await userEvent.upload(screen.getByLabelText("Requirements file"), file);
    // A preview first: the server's dry run, with the note of the requirement that would leave.
    const dialog = within(await screen.findByRole("dialog", { name: "Import rms.csv?" }));
    const content = "rms,summary\nRMS-1,One\nRMS-2,Two\n";
    expect(posted.slice(1)).toEqual([
      {
        path: "/v1/traceability/rms/import",
        body: { fileName: "rms.csv", content, dry_run: true },
      },
    ]);
    expect(
      dialog.getByText(/1 added · 1 changed · 0 unchanged · 0 restored · 1 archived/),
    ).toBeVisible();
    const archived = within(dialog.getByRole("region", { name: "Archived" }));
    expect(archived.getByText("RMS-9102 — Export a report")).toBeVisible();
    expect(
      archived.getByText(/Note: “Checked by hand each release” · No Automation/),
    ).toBeVisible();
    expect(dialog.getByText("Changes: summary")).toBeVisible();
    // Cancel changes nothing; a second upload and Import applies it.
    await userEvent.click(dialog.getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(posted).toHaveLength(2);
    await userEvent.upload(screen.getByLabelText("Requirements file"), file);
    await userEvent.click(
      within(await screen.findByRole("dialog", { name: "Import rms.csv?" })).getByRole("button", {
        name: "Import",
      }),
    );
    expect(
      await screen.findByText(
        /Imported 2 requirements and 0 bugs from rms.csv; 1 no longer in the file were archived, their notes kept/,
      ),
    ).toBeVisible();
    expect(posted.slice(2).map((p) => (p.body as { dry_run: boolean }).dry_run)).toEqual([
      true,
      false,
    ]);
  });
});

describe("Traceability Matrix", { timeout: 30_000 }, () => {
  it("hides inactive rows by default and computes the footer over the shown rows", async () => {
    installApi(MATRIX);
    renderPage();
    await screen.findByText("RMS-1 summary");

    expect(screen.queryByText("RMS-4 summary")).toBeNull();
    expect(screen.getByText("Total RMS: 4")).toBeVisible();
    expect(screen.getByText("Coverage: 50.00%")).toBeVisible();
    expect(screen.getByText(/Source: imported file rms.csv/)).toBeVisible();

    await userEvent.click(screen.getByLabelText("Hide Inactive RMS"));
    expect(await screen.findByText("RMS-4 summary")).toBeVisible();
    expect(screen.getByText("Total RMS: 5")).toBeVisible();
    expect(screen.getByText("Coverage: 40.00%")).toBeVisible();
  });

  it("links a Jira key to the tracker, and shows a Spira requirement's key unlinked", async () => {
    installApi({ ...MATRIX, rows: [row("RMS-1", ["passed"]), row("RQ:42", ["passed"])] });
    renderPage();
    expect(await screen.findByRole("link", { name: "RMS-1" })).toHaveAttribute(
      "href",
      "https://jira.example.com/browse/RMS-1",
    );
    expect(screen.getByText("RQ:42")).toBeVisible();
    expect(screen.queryByRole("link", { name: "RQ:42" })).toBeNull();
  });

  it("filters by text and by coverage", async () => {
    installApi(MATRIX);
    renderPage();
    await screen.findByText("RMS-1 summary");

    await userEvent.type(screen.getByLabelText("Filter RMS"), "billing");
    await waitFor(() => expect(screen.getAllByTestId("rms-row")).toHaveLength(1));
    expect(screen.getByText("RMS-2 summary")).toBeVisible();
    await userEvent.clear(screen.getByLabelText("Filter RMS"));

    await userEvent.click(screen.getByLabelText("Filter test runs"));
    await userEvent.click(await screen.findByRole("option", { name: "< 100% passed" }));
    await waitFor(() => expect(screen.getAllByTestId("rms-row")).toHaveLength(1));
    expect(screen.getByText("RMS-1 summary")).toBeVisible();
  });

  it("shows 'Coverage: N/A' when there are no rows", async () => {
    installApi({ source: null, rows: [] });
    renderPage();
    expect(await screen.findByText("No requirements imported yet.")).toBeVisible();
    expect(screen.getByText("Coverage: N/A")).toBeVisible();
  });

  it("hides the edit button where rms is ERROR and saves a note and the flag", async () => {
    const { puts } = installApi(MATRIX);
    renderPage();
    await screen.findByText("RMS-1 summary");
    expect(rmsKeys().some((text) => text?.startsWith("ERROR"))).toBe(true);
    expect(screen.queryByLabelText("Edit ERROR")).toBeNull();

    await userEvent.click(await screen.findByRole("button", { name: "Edit RMS-1" }));
    const dialog = await screen.findByRole("dialog", { name: "Update: RMS-1" });
    await userEvent.type(within(dialog).getByLabelText("Note"), "Reviewed");
    await userEvent.click(within(dialog).getByLabelText("No Automation for this RMS"));
    await userEvent.click(within(dialog).getByRole("button", { name: "Submit" }));

    await waitFor(() => expect(puts).toEqual([{ note: "Reviewed", noTestNeeded: 1 }]));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("lists linked bugs, or N/A when the shown rows have none", async () => {
    installApi(MATRIX);
    renderPage();
    await screen.findByText("RMS-1 summary");
    await userEvent.click(screen.getByRole("button", { name: "View Linked Bugs" }));
    const dialog = await screen.findByRole("dialog", { name: "Linked Jira Bugs" });
    // A spinner until GET /v1/integrations says whether Jira gives the details.
    expect(await within(dialog).findByText("NXL-7")).toBeVisible();
    expect(within(dialog).getByText("SSO loops")).toBeVisible();
    expect(within(dialog).getByText("Open")).toBeVisible();
  });

  it("shows N/A in the bugs dialog when there are none", async () => {
    installApi({ source: null, rows: [row("RMS-9", [])] });
    renderPage();
    await screen.findByText("RMS-9 summary");
    await userEvent.click(screen.getByRole("button", { name: "View Linked Bugs" }));
    const dialog = await screen.findByRole("dialog", { name: "Linked Jira Bugs" });
    expect(within(dialog).getByText("N/A")).toBeVisible();
  });
});
