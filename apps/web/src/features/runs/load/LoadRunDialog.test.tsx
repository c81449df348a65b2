import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { buildCatalog } from "../../../test/catalog-factory";
import { errorResponse, jsonResponse, mockApi } from "../../../test/mock-api";
import { renderUi } from "../../../test/render-ui";
import { buildLoadRun, buildLoadStat } from "../../../test/run-fixtures";
import { LoadRunDialog, reportHref } from "./LoadRunDialog";

const XSS = "<img src=x onerror=alert(1)>";

function mockLoad(handler: () => Response | Promise<Response>) {
  return mockApi({
    "/v1/catalog": () => jsonResponse(buildCatalog()),
    "/v1/load-test-runs/load-1": handler,
  });
}

function renderDialog() {
  return renderUi(<LoadRunDialog runKey="load-1" open onClose={() => undefined} />);
}

/** The dialog's field list as [label, value] pairs. */
function fields(): [string, string][] {
  const list = screen.getByRole("dialog").querySelector("dl");
  const terms = [...(list?.querySelectorAll("dt") ?? [])];
  return terms.map((dt) => [dt.textContent ?? "", dt.nextElementSibling?.textContent ?? ""]);
}

describe("LoadRunDialog", { timeout: 20_000 }, () => {
  it("shows skeletons while the run loads", () => {
    mockLoad(() => new Promise<Response>(() => undefined));
    renderDialog();
    expect(screen.getByRole("dialog", { name: /load-1/ })).toBeInTheDocument();
    expect(screen.getByLabelText("Loading the load run")).toBeInTheDocument();
  });

  it("says 'Error occurred fetching results' when the run cannot be read", async () => {
    mockLoad(() => errorResponse(404, "not_found", "No load test run with key load-1."));
    renderDialog();
    expect(await screen.findByText("Error occurred fetching results")).toBeInTheDocument();
  });

  it("shows the run's settings with a link to the stored report", async () => {
    mockLoad(() => jsonResponse({ run: buildLoadRun(), load_stats: [] }));
    renderDialog();
    await screen.findByText("Statistics");
    // The same label as the run list's Load region column.
    await screen.findByText("US (Oregon)");
    expect(fields()).toEqual([
      ["Env", "Stage"],
      ["Host", "https://stage.example.com"],
      ["Test file", "locustfiles/nextgen/patient_login.py"],
      ["Executor", "qa@example.com"],
      ["Users", "20"],
      ["Run time", "5m"],
      ["Spawn rate", "0.2 user/sec"],
      ["Load region", "US (Oregon)"],
      ["Created at", "2026-05-01 07:00:00 UTC"],
      ["Report", "Open the stored report"],
    ]);
    expect(screen.getByRole("link", { name: "Open the stored report" })).toHaveAttribute(
      "href",
      "/v1/objects/reports/2026/05/report.html",
    );
    expect(
      screen.getByText("No statistics were uploaded for this run", { exact: false }),
    ).toBeInTheDocument();
  });

  it("shows dashes for missing settings and no report link without a report", async () => {
    mockLoad(() =>
      jsonResponse({
        run: buildLoadRun({ host: null, users: null, spawn_rate: null, report_location: null }),
        load_stats: [],
      }),
    );
    renderDialog();
    await screen.findByText("Statistics");
    expect(Object.fromEntries(fields())).toMatchObject({
      Host: "–",
      Users: "–",
      "Spawn rate": "–",
      Report: "–",
    });
    // The only link is the load trend's (issue 35), never a report's.
    expect(screen.getAllByRole("link").map((link) => link.textContent)).toEqual([
      "Trend over time",
    ]);
  });

  it("lists the per-endpoint statistics with the aggregated row last and bold", async () => {
    mockLoad(() =>
      jsonResponse({
        run: buildLoadRun(),
        load_stats: [
          buildLoadStat({
            method: "",
            name: "Aggregated",
            requests: 2400,
            failures: 3,
            requests_per_s: 8.5,
            aggregated: true,
          }),
          buildLoadStat({ name: "/login" }),
          buildLoadStat({ method: "POST", name: XSS, failures: 3, median_ms: null }),
        ],
      }),
    );
    renderDialog();
    const table = await screen.findByRole("table", { name: "Statistics per endpoint" });
    const rows = within(table).getAllByRole("row");
    expect(
      within(rows[0]!)
        .getAllByRole("columnheader")
        .map((c) => c.textContent),
    ).toEqual([
      "Method",
      "Name",
      "Requests",
      "Failures",
      "Median (ms)",
      "95%ile (ms)",
      "99%ile (ms)",
      "Requests/s",
    ]);
    const cells = rows.slice(1).map((row) =>
      within(row)
        .getAllByRole("cell")
        .map((cell) => cell.textContent),
    );
    expect(cells).toEqual([
      ["GET", "/login", "1,200", "0", "120", "340", "800", "4.25"],
      ["POST", XSS, "1,200", "3", "–", "340", "800", "4.25"],
      ["", "Aggregated", "2,400", "3", "120", "340", "800", "8.5"],
    ]);
    const aggregated = within(rows[3]!).getByText("Aggregated");
    expect(getComputedStyle(aggregated).fontWeight).toBe("700");
    expect(document.querySelector("img")).toBeNull();
  });
});

describe("reportHref", () => {
  it("links stored paths and http(s) URLs as they are, and bare keys through the object store", () => {
    expect(reportHref("/v1/objects/reports/r.html")).toBe("/v1/objects/reports/r.html");
    expect(reportHref("https://reports.example.com/r.html")).toBe(
      "https://reports.example.com/r.html",
    );
    expect(reportHref("reports/2026/r.html")).toBe("/v1/objects/reports/2026/r.html");
  });

  it("links nothing for other schemes, protocol-relative URLs or no location", () => {
    expect(reportHref("javascript:alert(1)")).toBeNull();
    expect(reportHref("//evil.example.com/x")).toBeNull();
    expect(reportHref(null)).toBeNull();
  });
});
