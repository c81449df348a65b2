import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserPerFile, screenshot } from "./support/browser.js";
import { startDemoServer, type E2eServer } from "./support/server.js";

// The Nora Releases report on demo data, in real Chromium against the real server: opened from
// the Dashboard (it is not in the sidebar), the view select, the stacked bar chart and the table
// of the demo Jira's versions, incidents and the demo's OQ builds.

let server: E2eServer;
let page: Page;
// A page of its own per test; support/setup.ts fails a test on any console or page error.
// Reduced motion: the bars are drawn at once, so the screenshot shows the finished chart.
browserPerFile((p) => (page = p), { reducedMotion: "reduce" });

beforeAll(async () => {
  server = await startDemoServer({
    ASSAY_RELEASE_NOTES_URL: "https://notes.example.com/nora/{version}",
  });
}, 300_000);
afterAll(async () => {
  await server?.stop();
});

const table = () => page.getByRole("table", { name: "Release report" });
const versions = () => table().getByRole("rowheader").allTextContents();

/** The drawn bar segments: one per version and series with a figure above 0. */
const drawnBars = () =>
  page
    .getByRole("figure", { name: "OQ runs and incidents per release version" })
    .locator(".MuiBarChart-element")
    .evaluateAll(
      (bars) => bars.filter((bar) => (bar as SVGGraphicsElement).getBBox().height > 0).length,
    );

async function chooseView(label: string) {
  await page.getByRole("combobox", { name: "View" }).click();
  await page.getByRole("option", { name: label }).click();
  // The menu fades out: gone before anything is read or photographed.
  await page.locator(".MuiPopover-root").waitFor({ state: "detached" });
}

describe("Nora Releases", () => {
  it("opens from the Dashboard, not the sidebar, with the major releases charted", async () => {
    await page.goto(`${server.url}/dashboard`);
    const nav = page.getByRole("navigation", { name: "Screens" });
    await nav.getByRole("link", { name: "Dashboard" }).waitFor();
    expect(await nav.getByRole("link", { name: "Nora Releases" }).count()).toBe(0);
    await page.getByRole("link", { name: "Nora Releases" }).waitFor();
    await screenshot(page, "releases-dashboard-link");
    await page.getByRole("link", { name: "Nora Releases" }).click();
    await page.waitForURL(/\/releases$/);
    await page.getByRole("heading", { level: 1, name: "Nora Releases" }).waitFor();
    await table().waitFor();
    // The demo Jira's major versions (they contain '.0'), newest first.
    expect(await versions()).toEqual(["7.4.0", "7.3.0", "7.2.0", "7.1.0", "7.0.0"]);
    const figures = async (version: string) =>
      (
        await table()
          .getByRole("row")
          .filter({ hasText: version })
          .getByRole("cell")
          .allTextContents()
      ).slice(0, 4);
    // The demo's OQ builds and incidents: 7.4.0 has 3 OQ runs and 2 open incidents.
    expect(await figures("7.4.0")).toEqual(["3", "2", "0", "2"]);
    expect(await figures("7.0.0")).toEqual(["0", "4", "4", "0"]);
    // 7.0.0 and 7.1.0: closed incidents; 7.2.0: all three; 7.3.0: OQ runs; 7.4.0: OQ and open.
    await expect.poll(drawnBars).toBe(8);
    await expect(
      table().getByRole("link", { name: "Release notes 7.4.0" }).getAttribute("href"),
    ).resolves.toBe("https://notes.example.com/nora/7.4.0");
    await page.getByText("Jira (demo)").first().waitFor();
    await page.waitForFunction(() =>
      document.getAnimations().every((animation) => animation.playState !== "running"),
    );
    await screenshot(page, "releases-major");
  });

  it("switches the view select between all, with OQs and with incidents", async () => {
    await page.goto(`${server.url}/releases`);
    await table().waitFor();
    await chooseView("All Releases");
    await expect
      .poll(versions)
      .toEqual(["7.4.0", "7.3.1", "7.3.0", "7.2.0", "7.1.1", "7.1.0", "7.0.0"]);
    await chooseView("Release with OQs");
    await expect.poll(versions).toEqual(["7.4.0", "7.3.1", "7.3.0", "7.2.0"]);
    await page.waitForURL(/view=withOq/);
    // 7.3.1's OQ builds name only their Spira release: Spira named the version.
    await page.getByText("Spira (demo)").waitFor();
    await screenshot(page, "releases-with-oq");
    await chooseView("Release with Incidents");
    await expect.poll(versions).toEqual(["7.4.0", "7.3.1", "7.2.0", "7.1.1", "7.1.0", "7.0.0"]);
    await expect.poll(drawnBars).toBe(11);
  });
});
