import type { RmsTestLink, TraceabilityMatrix, TraceabilityRow } from "@assay/core";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { buildCatalog } from "../../test/catalog-factory";
import { buildMe } from "../../test/me-factory";
import { errorResponse, jsonResponse, mockApi } from "../../test/mock-api";
import { renderUi } from "../../test/render-ui";
import { TraceabilityMatrixPage } from "./TraceabilityMatrixPage";

// Links edited on the matrix screen (link a test, remove a link, their history) and the
// 'Linked Jira Bugs' dialog's Jira details.

const LINKED_AT = "2026-11-25T10:00:00Z";
const ROW: TraceabilityRow = {
  rmsDetail: {
    id: 1,
    rms: "RMS-1",
    summary: "Sign in",
    epic: "Access",
    type: "Story",
    note: "",
    noTestNeeded: 0,
  },
  testRuns: [
    {
      testId: 9100,
      name: "Tagged",
      filePath: null,
      suitePath: [],
      status: "passed",
      errorMessage: null,
    },
    {
      testId: 9200,
      name: "Linked by hand",
      filePath: null,
      suitePath: [],
      status: "failed",
      errorMessage: "boom",
      link: { linkedBy: "lead@example.com", linkedAt: LINKED_AT },
    },
  ],
  linkedBugs: [
    { key: "NXL-7", fields: { summary: "Stored summary", status: { name: "Open" } } },
    { key: "NXL-8", fields: { summary: "Gone from Jira", status: { name: "Open" } } },
    { key: "legacy bug 12", fields: { summary: "Not a Jira key", status: { name: "Closed" } } },
  ],
};
const MATRIX: TraceabilityMatrix = { source: null, rows: [ROW] };

const link = (testId: number, name: string, removed = false): RmsTestLink => ({
  rms: "RMS-1",
  testId,
  testName: name,
  linkedBy: "lead@example.com",
  linkedAt: LINKED_AT,
  removedBy: removed ? "qa@example.com" : null,
  removedAt: removed ? "2026-11-26T08:00:00Z" : null,
});

const INTEGRATIONS = (configured: boolean) => ({
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

function installApi(options: { jira?: boolean } = {}) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  let links = [link(9200, "Linked by hand"), link(9300, "Old link", true)];
  const record = (url: URL, init?: RequestInit) =>
    calls.push({
      method: init?.method ?? "GET",
      path: url.pathname,
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
    });
  mockApi({
    "/v1/catalog": () => jsonResponse(buildCatalog()),
    "/v1/me": () => jsonResponse(buildMe()),
    "/v1/traceability-matrix": () => jsonResponse(MATRIX),
    "/v1/integrations": () => jsonResponse(INTEGRATIONS(options.jira ?? false)),
    "/v1/jira/details": (url, init) => {
      record(url, init);
      return jsonResponse([
        { key: "NXL-7", fields: { summary: "<b>From Jira</b>", status: { name: "In Progress" } } },
      ]);
    },
    "/v1/traceability/rms/1/links": (url, init) => {
      if (init?.method !== "POST") return jsonResponse(links);
      record(url, init);
      const body = JSON.parse(String(init.body)) as { testId: string };
      if (body.testId === "TC9200")
        return errorResponse(409, "already_linked", "TC9200 is already linked to RMS-1.");
      const made = link(9400, "New link");
      links = [made, ...links];
      return jsonResponse(made, 201);
    },
    "/v1/traceability/rms/1/links/9200": (url, init) => {
      record(url, init);
      links = links.map((l) => (l.testId === 9200 ? link(9200, "Linked by hand", true) : l));
      return jsonResponse(link(9200, "Linked by hand", true));
    },
  });
  return calls;
}

const renderPage = () => renderUi(<TraceabilityMatrixPage />, { path: "/traceability-matrix" });

describe("links edited on the matrix", { timeout: 30_000 }, () => {
  it("marks a test linked on the screen with who linked it", async () => {
    installApi();
    renderPage();
    await screen.findByText("Sign in");
    await userEvent.click(screen.getByRole("button", { name: "Show tests" }));
    expect(
      await screen.findByTitle(/^Linked on the screen by lead@example.com, /),
    ).toBeInTheDocument();
    expect(screen.getAllByTitle(/^Linked on the screen/)).toHaveLength(1);
  });

  it("links a test, says why a link is refused, removes a link and lists the history", async () => {
    const calls = installApi();
    renderPage();
    await screen.findByText("Sign in");
    await userEvent.click(screen.getByRole("button", { name: "Link tests to RMS-1" }));
    const dialog = within(await screen.findByRole("dialog", { name: "Linked tests: RMS-1" }));

    const live = within(await dialog.findByRole("region", { name: "Linked on this screen" }));
    expect(live.getByText("TC9200 Linked by hand")).toBeVisible();
    const removed = within(dialog.getByRole("region", { name: "Removed links" }));
    expect(removed.getByText("TC9300 Old link")).toBeVisible();
    expect(removed.getByText(/^qa@example.com, /)).toBeVisible();

    await userEvent.type(dialog.getByLabelText("Test id"), "TC9200");
    await userEvent.click(dialog.getByRole("button", { name: "Link test" }));
    expect(await dialog.findByText("TC9200 is already linked to RMS-1.")).toBeVisible();

    await userEvent.clear(dialog.getByLabelText("Test id"));
    await userEvent.type(dialog.getByLabelText("Test id"), "9400");
    await userEvent.click(dialog.getByRole("button", { name: "Link test" }));
    expect(await dialog.findByText("Linked TC9400 New link.")).toBeVisible();
    expect(await live.findByText("TC9400 New link")).toBeVisible();

    await userEvent.click(dialog.getByRole("button", { name: "Remove TC9200" }));
    expect(await dialog.findByText(/Removed the link of TC9200/)).toBeVisible();
    await waitFor(() => expect(removed.getByText("TC9200 Linked by hand")).toBeVisible());

    expect(calls).toEqual([
      { method: "POST", path: "/v1/traceability/rms/1/links", body: { testId: "TC9200" } },
      { method: "POST", path: "/v1/traceability/rms/1/links", body: { testId: "9400" } },
      { method: "DELETE", path: "/v1/traceability/rms/1/links/9200", body: undefined },
    ]);
  });

  it("offers no link button signed out", async () => {
    mockApi({
      "/v1/catalog": () => jsonResponse(buildCatalog()),
      "/v1/me": () => errorResponse(401, "unauthorized", "Sign in first."),
      "/v1/traceability-matrix": () => jsonResponse(MATRIX),
    });
    renderPage();
    await screen.findByText("Sign in");
    expect(screen.getByRole("button", { name: "Link tests to RMS-1" })).toBeDisabled();
  });

  it("links to the printable report", async () => {
    installApi();
    renderPage();
    expect(await screen.findByRole("link", { name: "Printable report" })).toHaveAttribute(
      "href",
      "/traceability-matrix/print",
    );
  });
});

describe("Linked Jira Bugs with Jira's details", { timeout: 30_000 }, () => {
  it("shows Jira's status chip and summary as text, asking only for Jira keys", async () => {
    const calls = installApi({ jira: true });
    renderPage();
    await screen.findByText("Sign in");
    await userEvent.click(screen.getByRole("button", { name: "View Linked Bugs" }));
    const dialog = within(await screen.findByRole("dialog", { name: "Linked Jira Bugs" }));

    const rows = await dialog.findAllByTestId("linked-bug");
    expect(rows.map((row) => row.textContent)).toEqual([
      "NXL-7<b>From Jira</b>In Progress",
      "NXL-8Gone from Jira (not found in Jira; as imported)Open",
      "legacy bug 12Not a Jira keyClosed",
    ]);
    expect(
      dialog.getByText("Summary and status from Jira (https://jira.example.com)."),
    ).toBeVisible();
    expect(document.querySelector("[role=dialog] b")).toBeNull();
    expect(calls).toEqual([{ method: "POST", path: "/v1/jira/details", body: ["NXL-7", "NXL-8"] }]);
  });

  it("shows the stored summary and status, asking nothing, when Jira is not configured", async () => {
    const calls = installApi({ jira: false });
    renderPage();
    await screen.findByText("Sign in");
    await userEvent.click(screen.getByRole("button", { name: "View Linked Bugs" }));
    const dialog = within(await screen.findByRole("dialog", { name: "Linked Jira Bugs" }));

    const rows = await dialog.findAllByTestId("linked-bug");
    expect(rows[0]?.textContent).toBe("NXL-7Stored summaryOpen");
    expect(dialog.getByText(/Jira is not configured/)).toBeVisible();
    expect(calls).toEqual([]);
  });
});
