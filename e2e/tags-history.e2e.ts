import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserPerFile, screenshot } from "./support/browser.js";
import { signInOnPage } from "./support/oidc-login.js";
import { ingestClient, uploadReportText } from "./support/uploads.js";
import { startE2eServer, type E2eServer } from "./support/server.js";

// Top Fails -> Test History -> Dynamic Tags, in real Chromium against the real server, with
// results uploaded through the real ingestion API.

const TOKEN = "e2e-ingest-token-0123456789abcdef";
const USER = { email: "qa@example.com", password: "correct-horse-battery-staple" };
const HOUR = 3_600_000;
// Run in the page (a string, because this file is compiled without the DOM's types).
const background = (segment: "passed" | "rest") =>
  page.evaluate(
    `getComputedStyle(document.querySelector('[data-segment="${segment}"]')).backgroundColor`,
  );

let server: E2eServer;
let page: Page;
// A page of its own per test; support/setup.ts fails a test on any console or page error.
browserPerFile((p) => (page = p));

type Outcome = "passed" | "failed";

/**
 * A JUnit report of three tests with ids in their names (@TC...). Its timestamp is recent, so
 * its failures fall inside Top Fails' two-month window whatever day the journey runs.
 */
function junitReport(startedAt: Date, outcomes: Record<number, Outcome>): string {
  const cases = Object.entries(outcomes).map(([id, outcome]) => {
    const name = `Checkout keeps the cart total @TC${id}`;
    const failure =
      outcome === "failed" ? `<failure message="expected 80, got 90">AssertionError</failure>` : "";
    return `<testcase classname="Checkout" name="${name.replace("total", `total ${id}`)}" time="1.5">${failure}</testcase>`;
  });
  const failures = Object.values(outcomes).filter((o) => o === "failed").length;
  const timestamp = startedAt.toISOString().slice(0, 19);
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites tests="${cases.length}" failures="${failures}">
  <testsuite name="Checkout" tests="${cases.length}" failures="${failures}" timestamp="${timestamp}" time="4.5">
    ${cases.join("\n    ")}
  </testsuite>
</testsuites>`;
}

const upload = (xml: string) =>
  uploadReportText(
    ingestClient(server.url, TOKEN),
    { name: "junit.xml", type: "application/xml", text: xml },
    { test_run_name: "checkout nightly" },
  );

beforeAll(async () => {
  server = await startE2eServer({
    ASSAY_INGEST_TOKEN: TOKEN,
    ASSAY_ADMIN_EMAIL: USER.email,
    ASSAY_ADMIN_PASSWORD: USER.password,
  });
  // Two runs, so each test has a history: 9101 passed then failed, 9102 failed twice.
  const now = Date.now();
  await upload(
    junitReport(new Date(now - 2 * HOUR), { 9101: "passed", 9102: "failed", 9103: "passed" }),
  );
  await upload(
    junitReport(new Date(now - HOUR), { 9101: "failed", 9102: "failed", 9103: "passed" }),
  );
});
afterAll(async () => {
  await server?.stop();
});

const headerTitle = () => page.getByRole("banner").getByRole("heading");
const rowsOf = (table: string) => page.getByRole("table", { name: table }).locator("tbody tr");

describe("Top Fails and Test History", () => {
  it("lists the most failing tests first, each linked to its history", async () => {
    await page.goto(`${server.url}/top_fails`);
    await expect
      .poll(() => headerTitle().textContent())
      .toBe("Top Failed Tests in the last 2 months");
    await page.getByRole("link", { name: "TC9102" }).waitFor();

    const rows = await rowsOf("Top failed tests").allInnerTexts();
    expect(rows.map((row) => row.split("\t")[0])).toEqual(["TC9102", "TC9101"]);
    expect(rows[0]).toMatch(/\t2$/);
    expect(rows[1]).toMatch(/\t1$/);
    await screenshot(page, "top-fails-1440x900");
  });

  it("follows a Test ID to its history: both runs, and a half green, half red bar", async () => {
    await page.goto(`${server.url}/top_fails`);
    await page.getByRole("link", { name: "TC9101" }).click();
    await page.waitForURL(`${server.url}/history/9101`);
    await page.getByRole("table", { name: "Past results" }).waitFor();

    expect(await page.getByRole("textbox", { name: "Test ID", exact: true }).inputValue()).toBe(
      "9101",
    );
    const statuses = (await rowsOf("Past results").allInnerTexts()).map((r) =>
      r.split("\t")[1]?.trim(),
    );
    expect(statuses).toEqual(["Failed", "Passed"]);
    const bar = page.getByRole("img", { name: /^Pass rate/ });
    expect(await bar.getAttribute("aria-label")).toBe(
      "Pass rate: 1 of 2 passed (50%), 1 failed or other (50%)",
    );
    const passed = page.locator('[data-segment="passed"]');
    expect(await page.locator('[data-segment="rest"]').textContent()).toBe("50%");
    expect(await passed.textContent()).toBe("50%");
    // The theme's status colours: passed green, failed red.
    expect(await background("passed")).toBe("rgb(26, 127, 55)");
    expect(await background("rest")).toBe("rgb(209, 36, 47)");
    const link = rowsOf("Past results").first().getByRole("link");
    expect(await link.getAttribute("href")).toMatch(/^\/test_runs\/[^/]+\/[^/]+$/);
    await screenshot(page, "history-1440x900");
  });

  it("looks up another id with Enter and puts it in the URL", async () => {
    await page.goto(`${server.url}/history/9101`);
    await page.getByRole("table", { name: "Past results" }).waitFor();
    const field = page.getByRole("textbox", { name: "Test ID", exact: true });
    await field.fill("");
    expect(await page.getByRole("button", { name: "Retrieve" }).isDisabled()).toBe(true);
    // What is typed stays as typed; an id that is not digits is refused in words, not rewritten.
    await field.pressSequentially("91x02");
    expect(await field.inputValue()).toBe("91x02");
    expect(await page.getByRole("button", { name: "Retrieve" }).isDisabled()).toBe(true);
    await field.fill("9102");
    await field.press("Enter");

    await page.waitForURL(`${server.url}/history/9102`);
    await expect.poll(() => page.locator('[data-segment="rest"]').textContent()).toBe("100%");
    expect(await page.locator('[data-segment="passed"]').count()).toBe(0);
  });
});

describe("Dynamic Tags", () => {
  it("shows '@unstable' and refuses changes with 'Please sign in' when signed out", async () => {
    await page.goto(`${server.url}/dtags`);
    await page.getByRole("region", { name: "Tag @unstable" }).waitFor();
    expect(await page.getByRole("button", { name: "Add tag" }).isDisabled()).toBe(true);
    await page.getByRole("combobox", { name: "Tag" }).locator("xpath=ancestor::span[1]").hover();
    await expect.poll(() => page.getByRole("tooltip").textContent()).toBe("Please sign in");
    await screenshot(page, "dtags-signed-out-1440x900");
  });

  it("signed in, adds a tag to a test and removes it again", async () => {
    await signInOnPage(page, server.url, USER, "/dtags");

    const tagField = page.getByRole("combobox", { name: "Tag" });
    await expect.poll(() => tagField.isEnabled(), { timeout: 15_000 }).toBe(true);
    // Text that is no tag is refused on the screen with the rule, before any request.
    await tagField.fill("Smoke Checkout");
    await page.getByRole("textbox", { name: "Test ID", exact: true }).fill("9101");
    await page.getByRole("button", { name: "Add tag" }).click();
    await page.getByText("“smoke checkout” is not a tag: a tag starts with @").waitFor();
    await tagField.fill("@Smoke-Checkout");
    await page.getByRole("button", { name: "Add tag" }).click();

    const card = page.getByRole("region", { name: "Tag @smoke-checkout" });
    await card.getByRole("link", { name: "TC9101" }).waitFor();
    expect(await card.getByRole("listitem").innerText()).toMatch(/TC9101\s+Checkout keeps/);
    await screenshot(page, "dtags-tagged-1440x900");

    await card.getByRole("button", { name: "Remove TC9101 from @smoke-checkout" }).click();
    await card.getByText("No tests carry this tag.").waitFor();
    // Undo puts the test back (the Add tag form's POST), then it is taken out again.
    await page.getByText("Removed TC9101 from @smoke-checkout.").waitFor();
    await page.getByRole("button", { name: "Undo" }).click();
    await card.getByRole("link", { name: "TC9101" }).waitFor();
    await card.getByRole("button", { name: "Remove TC9101 from @smoke-checkout" }).click();
    await card.getByText("No tests carry this tag.").waitFor();

    await card.getByRole("button", { name: "Delete tag @smoke-checkout" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete the tag “@smoke-checkout”?" });
    await dialog.waitFor();
    // The dialog fades in: shoot it once the fade is over.
    await expect
      .poll(() =>
        page.evaluate("getComputedStyle(document.querySelector('.MuiDialog-container')).opacity"),
      )
      .toBe("1");
    await screenshot(page, "dtags-delete-dialog-1440x900");
    await dialog.getByRole("button", { name: "Delete" }).click();
    // While the dialog is open the page behind it is hidden from role queries: wait for it first.
    await dialog.waitFor({ state: "hidden" });
    await card.waitFor({ state: "detached" });
    await page.getByRole("region", { name: "Tag @unstable" }).waitFor();
    // The deleted tag is kept: Undo brings it back, then it is deleted for good.
    await page.getByText("Deleted @smoke-checkout.").waitFor();
    await page.getByRole("button", { name: "Undo" }).click();
    await card.waitFor();
    await card.getByRole("button", { name: "Delete tag @smoke-checkout" }).click();
    await dialog.getByRole("button", { name: "Delete" }).click();
    await dialog.waitFor({ state: "hidden" });
    await card.waitFor({ state: "detached" });

    const list = (await (await fetch(`${server.url}/v1/dtag`)).json()) as { byTag: object };
    expect(Object.keys(list.byTag)).toEqual(["@unstable"]);
  });
});
