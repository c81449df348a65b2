import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserPerFile, screenshot } from "./support/browser.js";
import { addUserWithCli, signInOnPage, submitLoginPage } from "./support/oidc-login.js";
import { startDemoServer, type E2eServer } from "./support/server.js";

// The Dashboard on demo data (switches, GRAPH and TABLE) and the Daily Run Scheduler's table
// (create, edit, deactivate, Run now, delete), in real Chromium against the real server.

// An admin added to the demo's copy (its first admin was made when the demo was loaded).
const ADMIN = { email: "lead@example.com", name: "Lead", password: "" };

let server: E2eServer;
let page: Page;
// A page of its own per test; support/setup.ts fails a test on any console or page error.
// Reduced motion: the charts skip their drawing animation (a clip mask whose width grows from 0,
// @mui/x-charts' AppearingMask), so a screenshot shows the finished chart. One taken
// mid-animation showed the lines of the first days only.
browserPerFile((p) => (page = p), { reducedMotion: "reduce" });

beforeAll(async () => {
  server = await startDemoServer();
  ADMIN.password = await addUserWithCli(server.dataDir, { ...ADMIN, admin: true });
}, 300_000);
afterAll(async () => {
  await server?.stop();
});

const uiPanel = () => page.getByRole("region", { name: "Daily UI Test Runs" });

describe("Dashboard", () => {
  it("charts the daily robot's UI runs and lists a clicked day's runs", async () => {
    await page.goto(`${server.url}/`);
    await page.waitForURL(/\/dashboard$/);
    // Attached, not visible: once today's demo run exists the Total line is flat (600 every day),
    // a path of zero height, which Playwright counts as hidden.
    await uiPanel().locator("svg .MuiLineChart-line").first().waitFor({ state: "attached" });
    await expect(uiPanel().getByText("Total")).toBeTruthy();
    await uiPanel().getByLabel("Latest pass rate").waitFor();
    // Every day of the period is drawn: the Total line runs the whole width of the x axis.
    const width = (selector: string) =>
      uiPanel()
        .locator(selector)
        .first()
        .evaluate((element) => (element as SVGGraphicsElement).getBBox().width);
    const axis = await width(".MuiChartsAxis-directionX .MuiChartsAxis-line");
    expect(await width("svg .MuiLineChart-line")).toBeGreaterThan(axis * 0.9);
    // ...and nothing is still being revealed when the screenshot is taken.
    await page.waitForFunction(() =>
      document.getAnimations().every((animation) => animation.playState !== "running"),
    );
    await screenshot(page, "dashboard-graph");
    const box = await uiPanel().locator("svg:has(.MuiLineChart-line)").first().boundingBox();
    if (!box) throw new Error("no chart");
    // A day near the right end (yesterday: the demo's last full day).
    await page.mouse.click(box.x + box.width * 0.93, box.y + box.height / 2);
    await uiPanel()
      .getByText(/^Runs on \d\d-\d\d$/)
      .waitFor();
    expect(await uiPanel().getByRole("listitem").count()).toBeGreaterThan(0);
  });

  it("switches platform and environment, and TABLE lists the rerun-failed runs that open their run", async () => {
    await page.goto(`${server.url}/dashboard`);
    await uiPanel().locator("svg .MuiLineChart-line").first().waitFor({ state: "attached" });
    await uiPanel().getByLabel("NextGen").check();
    await uiPanel().getByLabel("DEV or STAGE").check();
    await uiPanel().locator("svg .MuiLineChart-line").first().waitFor({ state: "attached" });
    await uiPanel().getByLabel("GRAPH or TABLE").check();
    const rows = uiPanel()
      .getByRole("table", { name: "Daily rerun-failed runs" })
      .locator("tbody tr");
    await rows.first().waitFor();
    await expect(rows.first().getByText("daily automatic rerun-failed executor")).toBeTruthy();
    await screenshot(page, "dashboard-table");
    await rows.first().click();
    await page.waitForURL(/\/test_runs\/[^/?]+/);
  });
});

// One journey, one test: each step works on the schedule the step before made.
describe("Daily Run Scheduler", () => {
  it("signed in, creates a daily schedule, runs it now, edits, deactivates and deletes it", async () => {
    await page.goto(`${server.url}/settings`);
    await page.getByRole("link", { name: "Sign in" }).click();
    await submitLoginPage(page, ADMIN);
    await page.waitForURL(/\/settings$/);
    await page.getByRole("button", { name: "Add", exact: true }).waitFor();
    // The demo's nightly runs are there as schedules, off.
    const demo = page.getByRole("row", { name: /Demo: Legacy nightly regression/ });
    await demo.getByText("At 01:00 (UTC)").waitFor();
    await demo.getByRole("cell", { name: "False", exact: true }).waitFor();

    // Created: shown in words with its next runs.
    await page.getByRole("button", { name: "Add", exact: true }).click();
    const form = page.getByRole("form", { name: "Edit setting" });
    await form.getByRole("button", { name: "Save" }).click();
    await form.getByText("Name is required and must not be empty.").waitFor();
    await form.getByLabel("Name").fill("Nightly NextGen stage");
    await form.getByLabel("Description").fill("Smoke on stage");
    await form.getByLabel("Runs").click();
    await page.getByRole("option", { name: "Every day at" }).click();
    await form.getByLabel("Time zone").fill("Europe/Berlin");
    // Active with no build: refused on the screen, saying what to do.
    await form.getByRole("button", { name: "Save" }).click();
    await form.getByText(/A schedule that runs on a time needs a build/).waitFor();
    // The build is chosen in the Create Frontend Build dialog's own form, not typed as JSON.
    await form.getByRole("button", { name: "Choose build…" }).click();
    const build = page.getByRole("dialog", { name: "Schedule's build: Frontend" });
    await build.getByRole("button", { name: "Use this build" }).click();
    await build.waitFor({ state: "hidden" });
    await form.getByText(/^Frontend build \(run_all on /).waitFor();
    await screenshot(page, "scheduler-editor");
    await form.getByRole("button", { name: "Save" }).click();
    const row = page.getByRole("row", { name: /Nightly NextGen stage/ });
    await row.getByText("At 02:00 (Europe/Berlin)").waitFor();
    await row.getByText(/^Next: /).waitFor();

    // Run now launches its build, which reaches /builds under the daily robot's name.
    await row.getByRole("button", { name: "Run now" }).click();
    // It asks first, saying what it starts.
    const question = page.getByRole("dialog", { name: "Run “Nightly NextGen stage” now?" });
    await question.getByText(/Frontend build \(run_all on /).waitFor();
    await question.getByRole("button", { name: "Run now" }).click();
    await row.getByText("launched").waitFor();
    // The slot's build, with its status in words, links to its log on /builds.
    await row.getByRole("link", { name: /^Build \d+: (In progress|Succeeded|Failed)/ }).waitFor();
    await screenshot(page, "scheduler-table");
    await page.goto(`${server.url}/builds?tab=0`);
    await page.getByText("daily robot executor").first().waitFor();
    await screenshot(page, "scheduler-build-on-builds");
    await page.goto(`${server.url}/settings`);

    // Edited and deactivated in place.
    await row.getByRole("button", { name: "Edit" }).click();
    await form.getByLabel("Description").fill("Smoke and login on stage");
    await form.getByLabel("Is Active").click();
    await page.getByRole("option", { name: "False" }).click();
    await form.getByRole("button", { name: "Save" }).click();
    const edited = page.getByRole("row", { name: /Smoke and login on stage/ });
    await edited.getByRole("cell", { name: "False", exact: true }).waitFor();

    // Deleted.
    await row.getByRole("button", { name: "Delete" }).click();
    // The row asks in place; the demo's rows keep their own Delete buttons.
    await row
      .getByText(
        /^Delete "Nightly NextGen stage"\? It will not run again; the builds it launched stay\.$/,
      )
      .waitFor();
    await row.getByRole("button", { name: "Delete", exact: true }).click();
    await row.waitFor({ state: "detached" });
    await demo.waitFor();
  }, 120_000);

  it("'Save as schedule' in the Create Frontend Build dialog makes a schedule", async () => {
    await signInOnPage(page, server.url, ADMIN, "/builds");
    await page.goto(`${server.url}/builds?tab=0&new=1`);
    const dialog = page.getByRole("dialog", { name: "Create Frontend Build" });
    await dialog.getByRole("button", { name: "Save as schedule" }).click();
    const save = page.getByRole("dialog", { name: "Save as schedule" });
    await save.getByLabel("Schedule name").fill("Nightly from the dialog");
    await save.getByLabel("Time zone").fill("UTC");
    await screenshot(page, "save-as-schedule");
    await save.getByRole("button", { name: "Save schedule" }).click();
    await save.getByText(/Saved as schedule “Nightly from the dialog”/).waitFor();
    await save.getByRole("link", { name: "Open the Daily Run Scheduler" }).click();
    await page.waitForURL(/\/settings$/);
    const row = page.getByRole("row", { name: /Nightly from the dialog/ });
    await row.getByText("At 02:00 (UTC)").waitFor();
    await row.getByText("Reruns failures once").waitFor();
  });
});
