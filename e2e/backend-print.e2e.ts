import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  allowConsoleErrors,
  browserPerFile,
  screenshot,
  SCREENSHOT_DIR,
} from "./support/browser.js";
import { startE2eServer, type E2eServer } from "./support/server.js";
import {
  ingestClient,
  REQUESTS_PER_RESULT,
  RESULTS,
  uploadBackendRun,
  uploadFrontendRun,
  uploadReport,
  uploadScreenshotRun,
  XSS,
  type Ingest,
} from "./support/uploads.js";

const TOKEN = "e2e-ingest-token-0123456789abcdef";

let server: E2eServer;
let ingest: Ingest;
let page: Page;
// A page of its own per test; support/setup.ts fails a test on any console or page error.
const browser = browserPerFile((p) => {
  page = p;
  // An alert would mean a test name ran as HTML.
  page.on("dialog", (dialog) => {
    alerts.push(dialog.message());
    void dialog.dismiss();
  });
});
let backendKey: string;
let frontendKey: string;
let testKey: string;
let bareTestKey: string;
let loadKey: string;
let shotsKey: string;
let shotsTestKey: string;
const alerts: string[] = [];

beforeAll(async () => {
  server = await startE2eServer({ ASSAY_INGEST_TOKEN: TOKEN });
  ingest = ingestClient(server.url, TOKEN);
  backendKey = await uploadBackendRun(ingest);
  [frontendKey, testKey, bareTestKey] = await uploadFrontendRun(ingest);
  loadKey = await uploadReport(ingest, ["locust/run_stats.csv", "locust/report.html"], {
    env: "stage",
    host: "https://stage.example.com",
    test_file: "locustfiles/nextgen/patient_login.py",
    users: "20",
    run_time: "5m",
    spawn_rate: "0.2",
    load_region: "us-west-2",
  });
  [shotsKey, shotsTestKey] = await uploadScreenshotRun(ingest, browser());
});
afterAll(async () => {
  await server?.stop();
});

/** Opens the backend run's results dialog from its deep link. */
async function openBackendRun() {
  await page.goto(`${server.url}/test_runs/${backendKey}?be=1`);
  await resultsDialog().waitFor();
}

/** Opens the print view of the run with screenshots, once all its images have loaded. */
async function openPrintView() {
  await page.goto(`${server.url}/print/${shotsKey}/${encodeURIComponent(shotsTestKey)}`);
  await page.getByRole("region", { name: "Screenshot 4" }).waitFor();
  // Polled from here: a string predicate polled in the page would be blocked by the app's CSP.
  await expect
    .poll(() =>
      page.evaluate(() =>
        [...document.images].every((image) => image.complete && image.naturalWidth > 0),
      ),
    )
    .toBe(true);
}

const resultsDialog = () => page.getByRole("dialog", { name: backendKey, exact: true });

describe("the Backend results dialog", () => {
  it("opens from a deep link with the run's boxes and results", async () => {
    await openBackendRun();
    const total = resultsDialog().getByRole("region", { name: "Total" });
    await expect.poll(() => total.textContent()).toContain(String(RESULTS));
    await expect
      .poll(() =>
        resultsDialog().getByRole("region", { name: "Failed", exact: true }).textContent(),
      )
      .toContain("10");
    // The XSS title is text: no image element exists in the page.
    await resultsDialog().getByText(XSS).first().waitFor();
    expect(await page.locator("img").count()).toBe(0);
    expect(alerts).toEqual([]);
    await screenshot(page, "backend-results-1440x900");
  });

  it("expands a failed result into its error, source link, console log and API requests", async () => {
    await openBackendRun();
    const failed = resultsDialog().getByRole("article", { name: /GET \/patients\/1 answers/ });
    await failed.getByRole("button", { expanded: false }).click();
    const source = failed.getByRole("link", { name: "View source" });
    // Line 21: the stack's first frame in the test's file (result 1 fails at 20 + 1).
    expect(await source.getAttribute("href")).toBe(
      `${await sourceBase()}test/patients.spec.ts#L21`,
    );
    await failed.getByRole("button", { name: /Show all of line 2/ }).waitFor();
    await screenshot(page, "backend-result-expanded-1440x900");
    await failed.getByRole("button", { name: "API requests" }).click();
    const table = failed.getByRole("table", { name: "API requests of this test" });
    await expect.poll(() => table.getByRole("row").count()).toBe(REQUESTS_PER_RESULT + 1);
    await screenshot(page, "backend-result-api-requests-1440x900");
  });

  it("opens the draggable API Requests dialog, pages 100/1000/10000, and stays light", async () => {
    await openBackendRun();
    await resultsDialog().getByRole("button", { name: "View API Requests" }).click();
    const log = page.getByRole("dialog", { name: `API Requests · ${backendKey}` });
    await log.getByRole("table", { name: "API requests" }).waitFor();
    await expect.poll(() => page.url()).toContain("api_log=1");
    await log
      .getByText(`1–100 of ${(RESULTS * REQUESTS_PER_RESULT).toLocaleString("en-US")}`)
      .waitFor();
    await screenshot(page, "api-requests-1440x900");

    await log.getByRole("combobox").click();
    await page.getByRole("option", { name: "10000" }).click();
    await log.getByText(`1–1,200 of 1,200`).waitFor();
    // The page-size menu's backdrop lingers while it fades out and would take the drag.
    await page.getByRole("listbox").waitFor({ state: "detached" });
    const rows = await log.locator("tr[aria-rowindex]").count();
    expect(rows).toBeGreaterThan(10);
    expect(rows).toBeLessThan(80);

    const paper = log;
    const before = await paper.boundingBox();
    const handle = page.getByTestId("api-requests-drag-handle");
    const box = await handle.boundingBox();
    if (!before || !box) throw new Error("the dialog is not laid out");
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 - 120, box.y + box.height / 2 + 60, { steps: 5 });
    await page.mouse.up();
    // React applies the move on its next render: poll, as a person would look again.
    await expect.poll(() => paper.getAttribute("style")).toContain("translate(-120px, 60px)");
    const after = await paper.boundingBox();
    expect(Math.round((after?.x ?? 0) - before.x)).toBe(-120);
    await screenshot(page, "api-requests-dragged-1440x900");

    await log.getByRole("button", { name: "Close" }).click();
    await expect.poll(() => page.url()).not.toContain("api_log");
  });
});

/** The example configuration's source repository URL, as the server's catalogue gives it. */
async function sourceBase(): Promise<string> {
  const catalog = (await ingest.api("/v1/catalog")) as { sourceRepositoryUrl: string };
  return catalog.sourceRepositoryUrl;
}

describe("the Load run dialog", () => {
  it("shows the run's settings and per-endpoint statistics, the total last", async () => {
    await page.goto(`${server.url}/test_runs/${loadKey}?load=1`);
    const table = page.getByRole("table", { name: "Statistics per endpoint" });
    await table.waitFor();
    const last = table.getByRole("row").last();
    expect(await last.textContent()).toContain("Aggregated");
    await screenshot(page, "load-run-1440x900");
  });

  it("opens the stored Locust report in a tab, its charts drawn, sandboxed from Assay", async () => {
    await page.goto(`${server.url}/test_runs/${loadKey}?load=1`);
    const [report] = await Promise.all([
      page.context().waitForEvent("page"),
      page.getByRole("link", { name: "Open the stored report" }).click(),
    ]);
    // The report links a favicon of Locust's web UI, not part of the upload; the sandbox's
    // policy refuses it, as it refuses anything the report did not bring inline.
    allowConsoleErrors(report, /favicon\.ico' violates the following Content Security Policy/);
    // Opened in the browser, not downloaded: the report's own scripts draw its charts.
    await report.waitForLoadState("load");
    expect(await report.title()).toBe("Test Report for locustfile.py");
    await report.locator(".charts-container canvas").first().waitFor();
    // An opaque origin: its scripts cannot read Assay's cookies or storage.
    expect(await report.evaluate(() => window.origin)).toBe("null");
    const reads = await report.evaluate(() => {
      const tried = (read: () => unknown) => {
        try {
          read();
          return "read";
        } catch {
          return "refused";
        }
      };
      return [tried(() => document.cookie), tried(() => window.localStorage.length)];
    });
    expect(reads).toEqual(["refused", "refused"]);
    await report.setViewportSize({ width: 1440, height: 900 });
    await screenshot(report, "load-report-1440x900");
    await report.close();
  });
});

describe("the print view", () => {
  it("shows the screenshots with the steps before them, without the sidebar", async () => {
    await openPrintView();
    expect(await page.getByRole("navigation").count()).toBe(0);
    const second = page.getByRole("region", { name: "Screenshot 2" });
    expect(await second.getByRole("listitem").allTextContents()).toEqual([
      expect.stringContaining("When I open the diary"),
      expect.stringContaining("And I answer the morning questions"),
    ]);
    expect(await second.textContent()).toContain("2026-05-01 08:00:03 UTC");
    const after = page.getByRole("region", { name: "Steps after the last screenshot" });
    expect(await after.textContent()).toContain("failedAnd the entry is listed for today");
    await screenshot(page, "print-1440x900");
  });

  it("prints without the Print button, each screenshot kept on one page", async () => {
    await openPrintView();
    await page.emulateMedia({ media: "print" });
    expect(await page.getByRole("button", { name: "Print" }).isVisible()).toBe(false);
    const breaks = await page.evaluate(
      "[...document.querySelectorAll('figure')].map((f) => getComputedStyle(f).breakInside)",
    );
    expect(breaks).toEqual(["avoid", "avoid", "avoid", "avoid"]);
    await screenshot(page, "print-media-print-1440x900");
  });

  it("prints to a PDF of several pages", async () => {
    await openPrintView();
    const pdf = await page.pdf({ format: "A4" });
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    const pages = pdf.toString("latin1").match(/\/Type\s*\/Page[^s]/g) ?? [];
    expect(pages.length).toBeGreaterThan(1);
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    writeFileSync(path.join(SCREENSHOT_DIR, "print.pdf"), pdf);
  });

  it("says 'Nothing Found!' for a test without screenshots, and the error for an unknown one", async () => {
    await page.goto(`${server.url}/print/${frontendKey}/${encodeURIComponent(bareTestKey)}`);
    await page.getByText("Nothing Found!").waitFor();
    // The unknown test's 404 is what this step shows; the browser logs it as a console error.
    allowConsoleErrors(page, /status of 404 .*\/v1\/test-detail\//);
    await page.goto(`${server.url}/print/${frontendKey}/no-such-test`);
    await page.getByText("An error occurred fetching results").waitFor();
  });

  it("prints the cucumber report's embedded screenshot", async () => {
    await page.goto(`${server.url}/print/${frontendKey}/${encodeURIComponent(testKey)}`);
    await page.getByRole("region", { name: "Screenshot 1" }).waitFor();
    const pdf = await page.pdf({ format: "A4" });
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
  });
});
