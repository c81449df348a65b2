import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserPerFile, screenshot } from "./support/browser.js";
import { signInOnPage } from "./support/oidc-login.js";
import { startE2eServer, type E2eServer } from "./support/server.js";

// Builds in real Chromium against the real server and its default local executor, which runs the
// example suites of examples/ (the frontend one drives this very server in Chromium).

const USER = { email: "qa@example.com", password: "correct-horse-battery-staple" };

let server: E2eServer;
let page: Page;
// A page of its own per test; support/setup.ts fails a test on any console or page error.
browserPerFile((p) => (page = p));

beforeAll(async () => {
  server = await startE2eServer({
    ASSAY_ADMIN_EMAIL: USER.email,
    ASSAY_ADMIN_PASSWORD: USER.password,
    // The example suite's page budget (examples/README.md): this machine runs many browsers at
    // once, and the rerun's TC90006 must fail only for its real reason (no run yet), not for load.
    ASSAY_EXAMPLE_BUDGET_MS: "20000",
  });
});
afterAll(async () => {
  await server?.stop();
});

const dialogNamed = (name: string) => page.getByRole("dialog", { name });
const create = (dialog: Locator) => dialog.getByRole("button", { name: "Create Builds" }).click();
const alertOf = (dialog: Locator) => dialog.getByRole("alert");

async function choose(dialog: Locator, label: string, option: string) {
  // A select's accessible name is its label and its value: "Site Legacy Dev".
  await dialog.getByRole("combobox", { name: new RegExp(`^${label}\\b`) }).click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

/** Waits for the dialog's fade-in, so a screenshot shows it whole. */
async function settled() {
  await expect
    .poll(() =>
      page.evaluate("getComputedStyle(document.querySelector('.MuiDialog-container')).opacity"),
    )
    .toBe("1");
}

/** The status word of the newest build of a list, as its chip shows it. */
const newestStatus = (table: string) =>
  page
    .getByRole("table", { name: table })
    .locator("tbody tr")
    .first()
    .locator("td")
    // Status, counted from the row's end: Start, End, Duration, Log and Stop follow it.
    .nth(-6)
    .innerText();

describe("Builds", () => {
  it("signed out: lists the builds, New Build is disabled with 'Please sign in'", async () => {
    await page.goto(`${server.url}/builds`);
    // Empty, or holding the builds the other tests started (the tests run in any order).
    await page
      .getByText("No builds yet: start one with New Build.")
      .or(page.getByRole("link", { name: /^Log of build/ }))
      .first()
      .waitFor();
    const newBuild = page.getByRole("button", { name: "New Build" });
    expect(await newBuild.isDisabled()).toBe(true);
    await newBuild.locator("xpath=..").hover();
    await expect.poll(() => page.getByRole("tooltip").textContent()).toBe("Please sign in");
    await screenshot(page, "builds-signed-out-1440x900");

    await page.getByRole("tab", { name: "Backend" }).click();
    await page.waitForURL(`${server.url}/builds?tab=1`);
    expect(await page.getByRole("button", { name: "New API Build" }).isDisabled()).toBe(true);
  });

  it("signed in: the Frontend dialog shows each of its messages", async () => {
    await signInOnPage(page, server.url, USER, "/builds");
    const newBuild = page.getByRole("button", { name: "New Build" });
    await expect.poll(() => newBuild.isEnabled(), { timeout: 15_000 }).toBe(true);
    await newBuild.locator("xpath=..").hover();
    await expect.poll(() => page.getByRole("tooltip").textContent()).toBe("Create new build");
    await newBuild.click();

    const dialog = dialogNamed("Create Frontend Build");
    await dialog.waitFor();
    await choose(dialog, "Site", "Other");
    await create(dialog);
    await expect.poll(() => alertOf(dialog).textContent()).toBe("Please enter the custom site.");
    await dialog.getByRole("textbox", { name: "Custom site" }).fill("qa7.example.com");
    await choose(dialog, "Database host", "Other");
    await create(dialog);
    await expect
      .poll(() => alertOf(dialog).textContent())
      .toBe("Please enter the custom database host.");
    await choose(dialog, "Database host", "The site's own database");

    await dialog.getByRole("radio", { name: "By Test Tags" }).click();
    await create(dialog);
    await expect
      .poll(() => alertOf(dialog).textContent())
      .toBe("A tag is required for By Test Tags.");
    const tag = dialog.getByRole("combobox", { name: "Tag" });
    await tag.fill("@nope");
    await tag.press("Enter");
    await dialog.getByText('"@nope" is not a known tag').waitFor();
    await tag.fill("@LOG");
    const listbox = page.getByRole("listbox");
    await listbox.waitFor();
    expect(await listbox.evaluate((el) => getComputedStyle(el).maxHeight)).toBe("300px");

    await dialog.getByRole("radio", { name: "OQ Test" }).click();
    await create(dialog);
    await expect
      .poll(() => alertOf(dialog).textContent())
      .toContain("Please provide SPIRA credentials, in your profile first.");
    // An OQ run names its release: without one it does not start either.
    expect(await alertOf(dialog).textContent()).toContain(
      "Please choose the release this OQ run is for",
    );
    await settled();
    await screenshot(page, "builds-frontend-dialog-oq-1440x900");

    await dialog.getByRole("radio", { name: "Translation Test" }).click();
    await dialog.getByText("This test runs on Stage env.").waitFor();
    expect(await dialog.getByRole("textbox", { name: "Branch" }).inputValue()).toBe("stage");
    await create(dialog);
    await expect
      .poll(() => alertOf(dialog).textContent())
      .toBe("Please select translation language code(s).");
    await dialog.getByRole("combobox", { name: "Languages" }).click();
    await page.getByRole("option", { name: "French (fr-FR)" }).click();
    const emails = dialog.getByRole("textbox", { name: "Screenshot report emails" });
    await emails.fill("qa@example.com, nope");
    await create(dialog);
    await expect.poll(() => alertOf(dialog).textContent()).toBe("Please enter valid email.");
    await emails.fill("qa@example.com, ann@gmail.com");
    await create(dialog);
    await expect.poll(() => alertOf(dialog).textContent()).toMatch(/^Only .+ email supported$/);
    await screenshot(page, "builds-frontend-dialog-translation-1440x900");

    await dialog.getByRole("radio", { name: "Bulk Image Upload" }).click();
    await create(dialog);
    await expect
      .poll(() => alertOf(dialog).textContent())
      .toBe("Please enter the Number of Patients.");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
  });

  it("New Build from the China list makes a China build, and says so", async () => {
    await signInOnPage(page, server.url, USER, "/builds");
    const newBuild = page.getByRole("button", { name: "New Build" });
    await expect.poll(() => newBuild.isEnabled(), { timeout: 15_000 }).toBe(true);
    // The switch moves the URL (region=CHINA); the list follows it.
    await page.getByRole("switch", { name: "China region" }).click();
    await page.waitForURL(/region=CHINA/);
    await newBuild.click();
    const dialog = dialogNamed("Create Frontend Build (China region)");
    await dialog.waitFor();
    await screenshot(page, "builds-china-dialog-1440x900");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    expect(page.url()).toMatch(/region=CHINA/);
  });

  it("the Backend dialog refuses a form without env, saying why; the Load dialog lists its messages", async () => {
    await signInOnPage(page, server.url, USER, "/builds");
    await page.getByRole("tab", { name: "Backend" }).click();
    await page.getByRole("button", { name: "New API Build" }).click();
    const backend = dialogNamed("Create Backend Build");
    await backend.waitFor();
    await create(backend);
    expect(await backend.getByRole("textbox", { name: "Env" }).getAttribute("aria-invalid")).toBe(
      "true",
    );
    // No request and no alert, but the field says what is wrong.
    await backend.getByText("Env is required.").waitFor();
    await backend.getByRole("textbox", { name: "Env" }).fill("<script>alert(1)</script>");
    await create(backend);
    await backend.getByText(/^Env must be a name such as dev1/).waitFor();
    expect(await alertOf(backend).count()).toBe(0);
    await screenshot(page, "builds-backend-dialog-messages-1440x900");
    await backend.getByRole("button", { name: "Cancel" }).click();
    await backend.waitFor({ state: "detached" });

    await page.getByRole("tab", { name: "Load" }).click();
    await page.getByRole("button", { name: "New Load Build" }).click();
    const load = dialogNamed("Create Load Build");
    await load.waitFor();
    await load.getByRole("textbox", { name: "Load branch" }).fill("");
    await load.getByRole("textbox", { name: "Duration" }).fill("5");
    await load.getByRole("textbox", { name: "No. of Users" }).fill("");
    await create(load);
    const alert = alertOf(load);
    await alert.waitFor();
    for (const message of [
      "Invalid branch",
      "Define duration in min or sec. eg: 5m or 20s",
      "Invalid users",
    ]) {
      expect(await alert.textContent()).toContain(message);
    }
    await settled();
    await screenshot(page, "builds-load-dialog-errors-1440x900");
    await load.getByRole("textbox", { name: "Load branch" }).fill("master");
    await load.getByRole("textbox", { name: "Duration" }).fill("5m");
    await load.getByRole("textbox", { name: "No. of Users" }).fill("20");
    await choose(load, "Env", "Other");
    await create(load);
    await expect.poll(() => alert.textContent()).toBe("Missing custom host");
    await load.getByRole("radio", { name: "Custom DB" }).click();
    expect(await load.getByRole("textbox", { name: "Duration" }).inputValue()).toBe("2m");
    await create(load);
    await expect.poll(() => alert.textContent()).toBe("DB Query is missing");
    await load.getByRole("textbox", { name: "DB Query" }).fill("select 1;\nselect 2;");
    await create(load);
    await expect.poll(() => alert.textContent()).toBe("DB Query is invalid");
    await load.getByRole("button", { name: "Cancel" }).click();
    await load.waitFor({ state: "detached" });
  });

  it("creates a frontend build from handed-over ids and watches it run to its end", async () => {
    await signInOnPage(page, server.url, USER, "/builds");
    // TC90006 looks for the build's own run, which exists only after the suite's upload: it fails
    // on this first attempt (examples/README.md), so the run has a failure to rerun.
    await page.goto(`${server.url}/builds?tab=0&new=1&tags=TC90001,TC90006`);
    const dialog = dialogNamed("Create Frontend Build");
    await dialog.waitFor();
    expect(await dialog.getByRole("radio", { name: "By Test Tags" }).isChecked()).toBe(true);
    await create(dialog);
    await dialog.waitFor({ state: "detached" });
    await page.waitForURL(`${server.url}/builds?tab=0`);
    const table = "Frontend builds";
    await page.getByRole("table", { name: table }).locator("tbody tr").first().waitFor();
    await screenshot(page, "builds-frontend-running-1440x900");
    // The list reads itself again while the build runs: no reload here.
    await expect
      .poll(() => newestStatus(table), { timeout: 120_000, interval: 1000 })
      .toBe("Failed");
    await screenshot(page, "builds-frontend-done-1440x900");

    await page
      .getByRole("link", { name: /^Log of build/ })
      .first()
      .click();
    const log = page.getByRole("dialog", { name: /^Log of build #/ });
    await log.waitFor();
    await expect
      .poll(() => log.getByLabel("Build log").innerText(), { timeout: 20_000 })
      .toMatch(/Running 2 of 6 frontend tests/);
    await settled();
    await screenshot(page, "builds-log-1440x900");
    await log.getByRole("button", { name: "Close" }).click();
    await log.waitFor({ state: "detached" });

    const runLink = page
      .getByRole("table", { name: table })
      .locator("tbody tr")
      .first()
      .getByRole("link")
      .first();
    await runLink.click();
    await page.waitForURL(/\/test_runs\/[^/?]+$/);
    const total = page.getByRole("region", { name: "Total", exact: true });
    await total.waitFor({ timeout: 30_000 });
    expect(await total.innerText()).toContain("2");
    expect(await page.getByRole("navigation", { name: "Builds of this run" }).innerText()).toMatch(
      /^Builds of this run:\s*#\d+ build \(failed\)$/,
    );
    await screenshot(page, "builds-produced-run-1440x900");

    // Rerun Failed on the produced run: TC90006's new attempt passes, and both attempts show.
    const count = async (box: string) =>
      Number(
        (
          await page.getByRole("region", { name: box, exact: true }).locator("p").innerText()
        ).trim(),
      );
    const failedBefore = await count("Failed");
    expect(failedBefore).toBeGreaterThanOrEqual(1);
    await page.getByRole("button", { name: "Rerun failed" }).click();
    // It asks first, saying how many tests of which run.
    const question = page.getByRole("dialog", { name: /^Rerun \d+ failed tests? of run / });
    await question.waitFor();
    await screenshot(page, "builds-rerun-question-1440x900");
    await question.getByRole("button", { name: "Rerun", exact: true }).click();
    await page
      .getByRole("status")
      .filter({ hasText: /^Rerun started: build #\d+/ })
      .waitFor();
    const builds = page.getByRole("navigation", { name: "Builds of this run" });
    await expect.poll(() => builds.innerText()).toMatch(/#\d+ rerun of failed \(in progress/);
    await screenshot(page, "builds-rerun-running-1440x900");
    // No reload: the run's builds are read again while one is active, then the run itself.
    await expect
      .poll(() => builds.innerText(), { timeout: 120_000, interval: 1000 })
      .toMatch(/#\d+ rerun of failed \(succeeded\)$/);
    // The run was read again: TC90006 found its run this time, so its retry passed and it is no
    // longer failed; passed results are hidden (the dialog opens on the failures) until shown.
    await expect.poll(() => count("Failed"), { timeout: 20_000 }).toBeLessThan(failedBefore);
    await page.getByLabel("Hide passed results").click();
    const retried = page.getByRole("article", { name: /^TC90006 / });
    await expect
      .poll(() => retried.innerText(), { timeout: 20_000 })
      .toContain("Flaky: passed on a retry");
    await screenshot(page, "builds-rerun-done-1440x900");

    await retried.getByRole("button", { name: "Details", exact: true }).click();
    const attempts = page.getByRole("table", { name: "Attempts of TC90006" });
    await attempts.waitFor({ timeout: 20_000 });
    const rows = attempts.locator("tbody tr");
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(0).innerText()).toMatch(
      /^First try\s+Failed\s[\s\S]*Expected the Total box/,
    );
    expect(await rows.nth(1).innerText()).toMatch(/^Retry 1 \(counts\) · shown\s+Passed\s*flaky/);
    await screenshot(page, "builds-rerun-attempts-1440x900");
    // The earlier attempt opens in the same dialog, with its own failure.
    await rows.nth(0).getByRole("button", { name: "First try" }).click();
    await expect.poll(() => rows.nth(0).innerText()).toMatch(/^First try · shown/);
    await page.getByRole("button", { name: "Close the test detail" }).click();
    // Sign-in, a real build of the example suite (its own Chromium) polled up to 120 s, its run,
    // then the rerun of its failures, polled up to 120 s.
  }, 420_000);

  it("creates a backend build and watches its phase and status change", async () => {
    await signInOnPage(page, server.url, USER, "/builds");
    await page.goto(`${server.url}/builds?tab=1&new=1`);
    const dialog = dialogNamed("Create Backend Build");
    await dialog.waitFor();
    await dialog.getByRole("textbox", { name: "Env" }).fill("dev1");
    await create(dialog);
    await dialog.waitFor({ state: "detached" });
    const table = "Backend builds";
    await page.getByRole("table", { name: table }).locator("tbody tr").first().waitFor();
    await expect
      .poll(() => newestStatus(table), { timeout: 120_000, interval: 1000 })
      .toMatch(/^(Succeeded|Failed)$/);
    const row = page.getByRole("table", { name: table }).locator("tbody tr").first();
    expect(await row.innerText()).toContain("Completed");
    await screenshot(page, "builds-backend-done-1440x900");
  }, 180_000);
});
