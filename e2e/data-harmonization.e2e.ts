import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserPerFile, screenshot } from "./support/browser.js";
import { addUserWithCli, signInOnPage, submitLoginPage } from "./support/oidc-login.js";
import { startDemoServer, type E2eServer } from "./support/server.js";

// Data Harmonization on a fresh start with demo data: each platform's view on the demo
// environments (computed by the real comparison jobs), Run Report followed live once signed
// in, and the data-harmonization host showing only this screen.

// An admin added to the demo's copy (its first admin was made when the demo was loaded).
const USER = { email: "dh@example.com", name: "DH", password: "" };

let server: E2eServer;
let page: Page;
// A page of its own per test; support/setup.ts fails a test on any console or page error.
browserPerFile((p) => (page = p));

beforeAll(async () => {
  server = await startDemoServer({
    // One server answers every name: "localhost" and "dh.localhost" (which Chromium resolves to
    // 127.0.0.1 itself) are data-harmonization sites; ASSAY_PUBLIC_URL is http://127.0.0.1:port.
    ASSAY_DATA_HARMONIZATION_HOSTS: "^(dh\\.)?localhost$",
  });
  USER.password = await addUserWithCli(server.dataDir, { ...USER, admin: true });
}, 300_000);
afterAll(async () => {
  await server?.stop();
});

/** Opens an MUI select by its label and picks an option. */
async function choose(label: string, option: string) {
  await page
    .locator(".MuiFormControl-root", { has: page.locator(`label:text-is("${label}")`) })
    .getByRole("combobox")
    .click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

const rowOf = (table: string, entity: string) =>
  page.getByRole("table", { name: table }).locator("tbody tr", { hasText: entity });

describe("Data Harmonization", () => {
  it("shows the Legacy demo report: equal, unequal and a missing table", async () => {
    await page.goto(`${server.url}/data`);
    await page.getByText("Demo data: these environments compare").waitFor();
    await choose("Environment", "Legacy Dev (demo)");
    await page.getByText(/Run \d+: Finished/).waitFor({ timeout: 60_000 });
    expect(await rowOf("Entity counts", "Visits").innerText()).toMatch(
      /3,400\s+3,398\s+-2\s+Unequal Counts/,
    );
    expect(await rowOf("Entity counts", "Queries").innerText()).toMatch(
      /Failed\s+relation .* does not exist/,
    );
    // Signed out, Run Report is disabled.
    expect(await page.getByRole("button", { name: "Run Report" }).isDisabled()).toBe(true);
    await screenshot(page, "data-harmonization-legacy");
  });

  it("runs a report once signed in and follows it to Finished", async () => {
    await signInOnPage(page, server.url, USER, "/data");
    await choose("Environment", "Legacy Dev (demo)");
    const before = await page.getByText(/Run \d+: Finished/).innerText();
    const run = page.getByRole("button", { name: "Run Report" });
    await expect.poll(() => run.isEnabled()).toBe(true);
    await run.click();
    await expect
      .poll(async () => page.getByText(/Run \d+: Finished/).innerText(), { timeout: 30_000 })
      .not.toBe(before);
    await page.getByRole("button", { name: "Compare with previous" }).click();
    await page.getByText(/no entity changed/).waitFor();
    await screenshot(page, "data-harmonization-run-report");
  });

  it("finds the keys missing on the destination of an entity with unequal counts", async () => {
    await signInOnPage(page, server.url, USER, "/data");
    await choose("Environment", "Legacy Dev (demo)");
    await page.getByText(/Run \d+: Finished/).waitFor({ timeout: 60_000 });
    // Only a row whose counts differ offers it: Visits (the demo's Redshift lost two visits).
    expect(await page.getByRole("button", { name: "Find missing rows" }).count()).toBe(1);
    await rowOf("Entity counts", "Visits")
      .getByRole("button", { name: "Find missing rows" })
      .click();
    const dialog = page.getByRole("dialog", { name: "Missing rows: Visits" });
    const missing = dialog.getByRole("list", { name: "Missing in destination" });
    await missing.waitFor({ timeout: 30_000 });
    expect(await missing.getByRole("listitem").allInnerTexts()).toEqual(["1207", "2950"]);
    await dialog.getByText("None: the destination has no key the source lacks.").waitFor();
    // The tables are named with the environment's name, never the database's address.
    const said = await dialog.innerText();
    expect(said).toContain("dh_demo_legacy_mysql.visits (Legacy Dev (demo), source demo-postgres)");
    expect(said).not.toMatch(/127\.0\.0\.1|localhost|:\d{4,5}\//);
    const computed = await dialog.getByText(/^Computed \d{4}-\d\d-\d\d [\d:]+ UTC/).innerText();
    await screenshot(page, "data-harmonization-missing-rows");
    await dialog.getByRole("button", { name: "Close" }).click();
    await dialog.waitFor({ state: "hidden" });

    // Reopened, the dialog shows the kept result and when it was computed; Recompute searches.
    await rowOf("Entity counts", "Visits")
      .getByRole("button", { name: "Find missing rows" })
      .click();
    expect(await dialog.getByText(/^Computed /).innerText()).toBe(computed);
    const searched = page.waitForResponse(
      (r) => r.request().method() === "POST" && r.url().endsWith("/missing-rows"),
      { timeout: 30_000 },
    );
    await dialog.getByRole("button", { name: "Recompute" }).click();
    expect((await searched).status()).toBe(200);
    await missing.waitFor();
    expect(await missing.getByRole("listitem").allInnerTexts()).toEqual(["1207", "2950"]);
    await dialog.getByRole("button", { name: "Close" }).click();
  });

  it("shows NextGen's entity cards; More Details only for Success", async () => {
    await page.goto(`${server.url}/data`);
    await choose("Platform", "NextGen");
    await choose("Environment", "NextGen FHIR Dev (demo)");
    await page.getByText(/Run \d+: Finished/).waitFor({ timeout: 30_000 });
    // Observation's FHIR-lite file lost a line: Count Error, its button shows the status.
    expect(await page.getByRole("button", { name: "Count Error", exact: true }).isDisabled()).toBe(
      true,
    );
    await page.getByRole("button", { name: "More Details" }).last().click();
    const files = page.getByRole("table", { name: "Per-file counts" });
    expect(await files.locator("tbody tr", { hasText: "consent_archive" }).innerText()).toMatch(
      /Missing in S3/,
    );
    await screenshot(page, "data-harmonization-nextgen-details");
    await page.getByRole("button", { name: "Close" }).click();
  });

  it("shows an SFDC document's S3, MySQL and discrepancy records", async () => {
    await page.goto(`${server.url}/data`);
    await choose("Platform", "SFDC");
    await choose("Environment", "SFDC Dev (demo)");
    await page.getByRole("cell", { name: "sfdc/leads/leads-2026-11-25.ndjson.gz" }).click();
    await page.getByText("Discrepancies (2)").waitFor();
    const header = await page
      .getByRole("table", { name: "Discrepancies" })
      .locator("thead")
      .innerText();
    expect(header.trim().split(/\s+/)).toEqual([
      "trial_id",
      "lead_id",
      "account_id",
      "first_name",
      "last_name",
      "gender",
      "birth_date",
      "phone",
      "state",
      "postal_code",
      "time_zone",
      "ethnicity",
    ]);
    await screenshot(page, "data-harmonization-sfdc");
  });

  it("shows a global schema per environment with per-table counts and errors", async () => {
    await signInOnPage(page, server.url, USER, "/data");
    await choose("Platform", "Global");
    expect(await page.locator('label:text-is("Environment")').count()).toBe(0);
    await choose("Global Schema", "reference");
    await choose("Global Environment Type", "stage");
    // The demo ran the dev schemas at start; stage is run here only.
    await page.getByText("No report for this environment yet: press Run Report.").waitFor();
    await page.getByRole("button", { name: "Run Report" }).click();
    await page.getByText("Errors").waitFor({ timeout: 30_000 });
    await page.getByText(/language: Redshift: relation .* does not exist/).waitFor();
    await screenshot(page, "data-harmonization-global");
  });

  it("is the only screen on a data-harmonization host", async () => {
    const port = new URL(server.url).port;
    await page.goto(`http://localhost:${port}/builds`);
    await page.getByRole("tab", { name: "Data Validation" }).waitFor();
    expect(await page.getByRole("navigation").count()).toBe(0);
    await screenshot(page, "data-harmonization-host");
  });

  it("signs in from a data-harmonization host by its own name, lands back there, signs out", async () => {
    const dhOrigin = `http://dh.localhost:${new URL(server.url).port}`;
    const here = `${dhOrigin}/data?from=journey`;
    await page.goto(here);
    await page.getByRole("tab", { name: "Data Validation" }).waitFor();
    await screenshot(page, "data-harmonization-host-signed-out");

    await page.getByRole("link", { name: "Sign in" }).click();
    // The provider's login page is at ASSAY_PUBLIC_URL, not at the host.
    await page.waitForURL(/\/oidc\/interaction\//);
    expect(new URL(page.url()).origin).toBe(server.url);
    await submitLoginPage(page, USER);

    // Back on the same page of the host, signed in there by the one-time code.
    await page.waitForURL(here);
    await page.getByRole("button", { name: "Account menu" }).waitFor();
    await choose("Environment", "Legacy Dev (demo)");
    await expect
      .poll(() => page.getByRole("button", { name: "Run Report" }).isEnabled())
      .toBe(true);
    // The session is the host's alone: the public address is not signed in by it.
    const atPublic = await page.context().request.get(`${server.url}/v1/me`);
    expect(await atPublic.json()).toEqual({ signed_in: false });
    await page.getByText(/Run \d+: Finished/).waitFor({ timeout: 60_000 });
    await screenshot(page, "data-harmonization-host-signed-in");

    await page.getByRole("button", { name: "Account menu" }).click();
    await page.getByRole("menuitem", { name: "Sign out" }).click();
    await page.getByRole("link", { name: "Sign in" }).waitFor();
    expect(page.url()).toBe(here);
    const me = await page.evaluate(async () => (await fetch("/v1/me")).json());
    expect(me).toEqual({ signed_in: false });
  });
});
