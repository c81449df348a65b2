import type { ReleaseReport, ReleaseReportRow } from "@assay/core";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { errorResponse, jsonResponse, mockApi, requestedPaths } from "../../test/mock-api";
import { renderUi } from "../../test/render-ui";
import { NoraReleasesPage } from "./NoraReleasesPage";

function row(
  releaseVersion: string,
  totalOQ: number,
  incidentClose: number,
  incidentOpen: number,
): ReleaseReportRow {
  return {
    releaseVersion,
    totalOQ,
    incidentCount: incidentClose + incidentOpen,
    incidentClose,
    incidentOpen,
    releaseNotesUrl: `https://notes.example.com/${releaseVersion}`,
    released: true,
    releaseDate: "2026-05-01",
  };
}

const REPORT: ReleaseReport = {
  rows: [
    row("7.0.0", 0, 4, 0),
    row("7.1.1", 0, 1, 0),
    row("7.2.0", 2, 2, 1),
    row("7.3.1", 1, 0, 0),
  ],
  view: "all",
  sources: {
    releaseVersions: [{ kind: "jira", demo: true, detail: "versions of Jira project NXL" }],
    totalOQ: [{ kind: "builds", demo: false, detail: "runs of the OQ builds" }],
    incidents: [{ kind: "jira", demo: true, detail: "issues of 'issuetype = Incident'" }],
  },
  notes: [],
  releaseNotesConfigured: true,
  generatedAt: "2026-11-26T10:00:00Z",
};

// The chart sizes itself to its box; jsdom has no layout, so the observer never reports.
class NoResize {
  observe() {}
  unobserve() {}
  disconnect() {}
}

beforeEach(() => {
  vi.stubGlobal("ResizeObserver", NoResize);
});

const tableVersions = () =>
  within(screen.getByRole("table", { name: "Release report" }))
    .getAllByRole("rowheader")
    .map((cell) => cell.textContent);

async function chooseView(label: string) {
  await userEvent.click(screen.getByRole("combobox", { name: "View" }));
  await userEvent.click(await screen.findByRole("option", { name: label }));
}

// The chart renders its SVG under jsdom, which takes seconds on a busy machine.
describe("Nora Releases", { timeout: 30_000 }, () => {
  it("shows a spinner, then the major releases' chart and table, newest first", async () => {
    let answer: (response: Response) => void = () => undefined;
    const fetchMock = mockApi({
      "/v1/release-detail": () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    renderUi(<NoraReleasesPage />, { path: "/releases" });
    expect(
      await screen.findByRole("progressbar", { name: "Loading the release report" }),
    ).toBeInTheDocument();
    answer(jsonResponse(REPORT));
    await screen.findByRole("table", { name: "Release report" });
    expect(screen.getByRole("combobox", { name: "View" })).toHaveTextContent("Major Releases");
    expect(tableVersions()).toEqual(["7.2.0", "7.0.0"]);
    expect(screen.getByRole("figure", { name: /OQ runs and incidents/ })).toBeInTheDocument();
    const first = screen.getAllByRole("row")[1]!;
    expect(
      within(first)
        .getAllByRole("cell")
        .map((c) => c.textContent),
    ).toEqual(["2", "3", "2", "1", "2026-05-01", "Release notes 7.2.0"]);
    expect(within(first).getByRole("link")).toHaveAttribute(
      "href",
      "https://notes.example.com/7.2.0",
    );
    // Where each figure came from.
    const sources = screen.getByRole("region", { name: "Sources of the figures" });
    expect(within(sources).getAllByText("Jira (demo)")).toHaveLength(2);
    expect(within(sources).getByText("Assay OQ builds")).toBeInTheDocument();
    expect(requestedPaths(fetchMock)).toEqual(["/v1/release-detail"]);
  });

  it("switches between the four views without asking the server again", async () => {
    const fetchMock = mockApi({ "/v1/release-detail": () => jsonResponse(REPORT) });
    renderUi(<NoraReleasesPage />, { path: "/releases" });
    await screen.findByRole("table", { name: "Release report" });
    await chooseView("All Releases");
    expect(tableVersions()).toEqual(["7.3.1", "7.2.0", "7.1.1", "7.0.0"]);
    await chooseView("Release with OQs");
    expect(tableVersions()).toEqual(["7.3.1", "7.2.0"]);
    await chooseView("Release with Incidents");
    expect(tableVersions()).toEqual(["7.2.0", "7.1.1", "7.0.0"]);
    expect(requestedPaths(fetchMock)).toHaveLength(1);
  });

  it("says what to do when a view is empty", async () => {
    mockApi({
      "/v1/release-detail": () => jsonResponse({ ...REPORT, rows: [row("7.1.1", 0, 0, 0)] }),
    });
    renderUi(<NoraReleasesPage />, { path: "/releases?view=withOq" });
    expect(await screen.findByText(/start a build with the run type OQ Test/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Show all releases" }));
    await waitFor(() => expect(tableVersions()).toEqual(["7.1.1"]));
  });

  it("says when the versions and incidents came from an imported requirements file", async () => {
    const file = "imported file nora.json, 2026-11-26T09:00:00.000Z";
    mockApi({
      "/v1/release-detail": () =>
        jsonResponse({
          ...REPORT,
          sources: {
            ...REPORT.sources,
            releaseVersions: [{ kind: "file", demo: false, detail: `releases of the ${file}` }],
            incidents: [
              { kind: "file", demo: false, detail: `incidents of each release in the ${file}` },
            ],
          },
        }),
    });
    renderUi(<NoraReleasesPage />, { path: "/releases" });
    const sources = await screen.findByRole("region", { name: "Sources of the figures" });
    expect(within(sources).getAllByText("Imported file")).toHaveLength(2);
    expect(within(sources).getByText(`releases of the ${file}`)).toBeInTheDocument();
    expect(within(sources).queryByText(/Jira/)).not.toBeInTheDocument();
  });

  it("says Jira is not configured, and what to set", async () => {
    mockApi({
      "/v1/release-detail": () =>
        errorResponse(503, "not_configured", "Jira is not configured: set ASSAY_JIRA_URL."),
    });
    renderUi(<NoraReleasesPage />, { path: "/releases" });
    expect(await screen.findByText("Jira is not configured")).toBeInTheDocument();
    expect(screen.getByText(/set ASSAY_JIRA_URL/)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Retry" })).not.toBeInTheDocument();
  });

  it("shows Jira's failure with a Retry that asks again", async () => {
    let calls = 0;
    mockApi({
      "/v1/release-detail": () =>
        ++calls === 1
          ? errorResponse(502, "tracker_unavailable", "Jira answered 500 to POST /search.")
          : jsonResponse(REPORT),
    });
    renderUi(<NoraReleasesPage />, { path: "/releases" });
    expect(await screen.findByText(/Jira answered 500/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Retry" }));
    await screen.findByRole("table", { name: "Release report" });
    expect(calls).toBe(2);
  });
});
