import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserPerFile, screenshot } from "./support/browser.js";
import { startDemoServer, type E2eServer } from "./support/server.js";

/**
 * The demo data a fresh `npm start` shows, at 1440x900, signed out: the backend dialog's
 * pending results, the frontend Failed Summary, the Top Fails pager and the Load list's width
 * (issue 18 items 1, 4, 8 and 9). Every page must log no console error (support/setup.ts).
 */

let server: E2eServer;
let page: Page;
// A page of its own per test; support/setup.ts fails a test on any console or page error.
browserPerFile((p) => (page = p));

interface RunItem {
  test_run_key: string;
  failed: number;
  pending: number;
}

async function items(path: string): Promise<RunItem[]> {
  const res = await fetch(`${server.url}${path}`);
  return ((await res.json()) as { items: RunItem[] }).items;
}

/** The sum of the counts the Failed Summary box lists. */
async function summaryTotal(): Promise<number> {
  const lines = await page
    .getByRole("region", { name: "Failed Summary" })
    .getByRole("listitem")
    .allTextContents();
  return lines.reduce(
    (sum, line) => sum + Number(/([\d,]+)$/.exec(line)?.[1]?.replace(/,/g, "")),
    0,
  );
}

/** The Failed Summary's list shows every group: nothing hidden behind a scroll. */
async function summaryScrolls(): Promise<boolean> {
  return page
    .getByRole("region", { name: "Failed Summary" })
    .getByRole("list")
    .evaluate((list) => list.scrollHeight > list.clientHeight + 1);
}

beforeAll(async () => {
  server = await startDemoServer();
}, 300_000);
afterAll(async () => {
  await server?.stop();
});

describe("demo screens at 1440x900", () => {
  it("shows a backend run's 'Pending reason' failures as skipped, out of Failed", async () => {
    const run = (await items("/v1/api-test-runs?page_size=30")).find((r) => r.pending > 0);
    expect(run, "a demo backend run with pending results").toBeDefined();
    await page.goto(`${server.url}/test_runs/${run!.test_run_key}?be=1`);
    await page.getByRole("article").first().waitFor();
    const failedBox = page.getByRole("region", { name: "Failed", exact: true });
    expect(await failedBox.getByText(String(run!.failed), { exact: true }).count()).toBe(1);
    const rowsLabelled = (label: string) =>
      page
        .getByRole("article")
        .filter({ has: page.getByText(label, { exact: true }) })
        .count();
    // The list is virtualized: the rows in view are checked, the counts through the boxes.
    expect(await summaryTotal()).toBe(run!.failed);
    expect(await summaryScrolls()).toBe(false);

    // Hide failed leaves the pending results: shown as skipped, each with its reason.
    await page.getByRole("switch", { name: "Hide failed results" }).check();
    await expect.poll(() => rowsLabelled("Failed")).toBe(0);
    const pending = page.getByRole("article").filter({ hasText: /Pending: \S/ });
    for (let i = 0; i < 80 && (await pending.count()) === 0; i++) {
      await page.getByRole("article").last().hover();
      await page.mouse.wheel(0, 600);
      await page.waitForTimeout(100);
    }
    const shown = await pending.count();
    expect(shown).toBeGreaterThan(0);
    expect(await pending.filter({ has: page.getByText("Skipped", { exact: true }) }).count()).toBe(
      shown,
    );
    expect(await rowsLabelled("Failed")).toBe(0);
    await pending.first().scrollIntoViewIfNeeded();
    await screenshot(page, "demo-backend-pending");
  });

  it("shows every Failed Summary group of a frontend run, adding up to Failed", async () => {
    const runs = await items("/v1/test-runs?page_size=100");
    const run = runs.reduce((most, r) => (r.failed > most.failed ? r : most));
    await page.goto(`${server.url}/test_runs/${run.test_run_key}`);
    const summary = page.getByRole("region", { name: "Failed Summary" });
    await summary.getByRole("listitem").first().waitFor();
    const failedBox = page.getByRole("region", { name: "Failed", exact: true });
    const failed = Number((await failedBox.locator("p").first().textContent())?.replace(/,/g, ""));
    expect(await summary.getByRole("listitem").count()).toBeGreaterThan(6);
    expect(await summaryTotal()).toBe(failed);
    expect(await summaryScrolls()).toBe(false);
    await screenshot(page, "demo-frontend-failed-summary");
  });

  it("pages Top Fails 15 rows at a time", async () => {
    await page.goto(`${server.url}/top_fails`);
    const table = page.getByRole("table", { name: "Top failed tests" });
    await table.getByRole("link").first().waitFor();
    expect(await table.locator("tbody tr").count()).toBe(15);
    await expect.poll(() => page.getByText(/^1–15 of \d+$/).count()).toBe(1);
    await screenshot(page, "demo-top-fails");
    await page.getByRole("button", { name: "Go to next page" }).click();
    await page.getByText(/^16–\d+ of \d+$/).waitFor();
  });

  it("fits the Load runs list in the screen", async () => {
    await page.goto(`${server.url}/test_runs?tab=load`);
    const table = page.getByRole("table", { name: "Load runs" });
    await table.getByRole("link", { name: "Report" }).first().waitFor();
    const widths = await table.evaluate((element) => {
      const container = element.parentElement!;
      return { table: element.scrollWidth, area: container.clientWidth };
    });
    expect(widths.table).toBeLessThanOrEqual(widths.area);
    await expect(table.getByRole("columnheader", { name: "Report" }).isVisible()).resolves.toBe(
      true,
    );
    await screenshot(page, "demo-load-list");
  });

  it("shows the retention policy and the demo's pass on the Setting screen", async () => {
    // The demo ends with a retention pass over its oldest runs (trigger "demo").
    const retention = async () =>
      (await (await fetch(`${server.url}/v1/retention`)).json()) as {
        lastPass: { state: string; results: number } | null;
      };
    await expect
      .poll(async () => (await retention()).lastPass?.state, { timeout: 60_000 })
      .toBe("finished");
    const { lastPass } = await retention();
    await page.goto(`${server.url}/settings`);
    const section = page.getByRole("region", { name: "Retention" });
    const policy = section.getByRole("table", { name: "Retention policy" });
    await policy.waitFor();
    expect(await policy.getByRole("columnheader").allTextContents()).toContain("All other runs");
    const last = section.getByLabel("Last retention pass");
    await expect.poll(() => last.textContent()).toContain("Finished");
    const text = (await last.textContent()) ?? "";
    expect(text).toContain("demo data");
    expect(text).toContain(`${lastPass!.results.toLocaleString("en-US")} results`);
    expect(text).toMatch(/Database [\d.]+ [KMG]iB before the pass, [\d.]+ [KMG]iB after\./);
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, "demo-setting-retention");
  });

  it("loads signed-out pages and the API documentation without console errors", async () => {
    for (const path of ["/dtags", "/docs"]) {
      await page.goto(`${server.url}${path}`, { waitUntil: "networkidle" });
    }
    await page.getByText("Assay API").first().waitFor();
  });
});
