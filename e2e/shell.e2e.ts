import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allowConsoleErrors, browserPerFile, screenshot } from "./support/browser.js";
import { startE2eServer, type E2eServer } from "./support/server.js";

// The sidebar of spec section 2 (and triage's Failures), in order, with the header title each
// entry opens.
const SCREENS = [
  ["Dashboard", "/dashboard", "Dashboard"],
  ["Builds", "/builds", "Builds"],
  ["Test Reports", "/test_runs", "Test Reports"],
  ["Traceability Matrix", "/traceability-matrix", "NextGen UI Automation Coverage"],
  ["Top Fails", "/top_fails", "Top Failed Tests in the last 2 months"],
  ["Failures", "/failures", "Failures by cause"],
  ["Flaky Tests", "/flaky", "Flaky Tests"],
  ["Test History", "/history", "Test History"],
  ["Renamed Tests", "/renamed-tests", "Renamed Tests"],
  ["Dynamic Tags", "/dtags", "Dynamic Tags"],
  ["Data Harmonization", "/data", "Data Harmonization"],
  ["Setting", "/settings", "Daily Run Scheduler"],
] as const;

let server: E2eServer;
let page: Page;
// A page of its own per test; support/setup.ts fails a test on any console or page error.
browserPerFile((p) => (page = p));

beforeAll(async () => {
  // One server answers both host names: "localhost" is configured as a data-harmonization site.
  server = await startE2eServer({ ASSAY_DATA_HARMONIZATION_HOSTS: "^localhost$" });
});
afterAll(async () => {
  await server?.stop();
});

const nav = () => page.getByRole("navigation", { name: "Screens" });
const headerTitle = () => page.getByRole("banner").getByRole("heading");

describe("the app shell", () => {
  it("lands on /dashboard from /", async () => {
    await page.goto(`${server.url}/`);
    await page.waitForURL(`${server.url}/dashboard`);
    await expect.poll(() => headerTitle().textContent()).toBe("Dashboard");
    // An empty store: the Dashboard's charts are there, saying which executor they wait for.
    await page.getByText("Daily UI Test Runs").first().waitFor();
    await screenshot(page, "shell-dashboard-1440x900");
    await page.setViewportSize({ width: 1280, height: 720 });
    await screenshot(page, "shell-dashboard-1280x720");
  });

  it("lists every screen in the sidebar, 230 px wide, with the documentation links", async () => {
    await page.goto(`${server.url}/dashboard`);
    // The app renders once the screen's code is in (main.tsx), which can be after the load event.
    await nav().getByRole("link").first().waitFor();
    const labels = await nav().getByRole("link").allTextContents();
    expect(labels).toEqual(SCREENS.map(([label]) => label));
    const drawer = await page.locator(".MuiDrawer-paper").boundingBox();
    expect(drawer?.width).toBe(230);
    for (const doc of [
      "API Documentation",
      "Directory of Legacy UI Tests",
      "Directory of NextGen UI Tests",
      "Directory of Mobile UI Tests",
    ]) {
      await expect.poll(() => page.getByRole("link", { name: doc }).count()).toBe(1);
    }
    await expect.poll(() => page.getByRole("contentinfo").textContent()).toContain("©");
  });

  it("navigates to each screen, highlighting its entry and showing its title", async () => {
    await page.goto(`${server.url}/dashboard`);
    for (const [label, path, title] of SCREENS) {
      await nav().getByRole("link", { name: label }).click();
      await page.waitForURL(`${server.url}${path}`);
      await expect.poll(() => headerTitle().textContent()).toBe(title);
      const current = nav().locator('[aria-current="page"]');
      expect(await current.textContent()).toBe(label);
    }
  });

  it("keeps the entry highlighted on a deep link with parameters", async () => {
    // No test 42 in this empty store: the screen's read answers 404, which the browser logs.
    allowConsoleErrors(page, /status of 404 .*\/v1\/history\/42\b/);
    await page.goto(`${server.url}/history/42`);
    await expect
      .poll(() => nav().locator('[aria-current="page"]').textContent())
      .toBe("Test History");
  });

  it("shows the print view without the sidebar", async () => {
    // The missing run's 404 is what this step shows; the browser logs it as a console error.
    allowConsoleErrors(page, /status of 404 .*\/v1\/test-detail\/run-1\/7/);
    await page.goto(`${server.url}/print/run-1/7`);
    // No such run in this empty store: the print view's own error, still without the sidebar.
    await page.getByText("An error occurred fetching results").waitFor();
    expect(await nav().count()).toBe(0);
    await screenshot(page, "shell-print");
  });

  it("shows Page not found with a way back for an unknown path", async () => {
    await page.goto(`${server.url}/no/such/screen`);
    await expect.poll(() => page.getByText("Page not found").count()).toBeGreaterThan(0);
    await page
      .getByRole("link", { name: /dashboard/i })
      .last()
      .click();
    await page.waitForURL(`${server.url}/dashboard`);
  });

  it("opens the API documentation from the sidebar link", async () => {
    await page.goto(`${server.url}/dashboard`);
    const href = await page.getByRole("link", { name: "API Documentation" }).getAttribute("href");
    expect(href).toBe("/docs");
    const res = await page.request.get(`${server.url}/docs/json`);
    expect(res.ok()).toBe(true);
  });
});

describe("host-based mode", () => {
  it("shows only Data Harmonization on every path for a data-harmonization host", async () => {
    const port = new URL(server.url).port;
    for (const path of ["/", "/builds", "/test_runs/abc", "/settings"]) {
      await page.goto(`http://localhost:${port}${path}`);
      await expect.poll(() => page.getByText("Data Harmonization").count()).toBeGreaterThan(0);
      expect(await nav().count()).toBe(0);
      expect(await page.getByText("Dashboard").count()).toBe(0);
    }
    await page.getByRole("button", { name: "Run Report" }).waitFor();
    await screenshot(page, "shell-data-harmonization-host");
  });
});
