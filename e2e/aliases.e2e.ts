import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserPerFile, screenshot } from "./support/browser.js";
import { signInOnPage } from "./support/oidc-login.js";
import { ingestClient, uploadReportText } from "./support/uploads.js";
import { startE2eServer, type E2eServer } from "./support/server.js";

// Renamed tests: a test renamed between two nightly runs is suggested on the Renamed Tests
// screen, confirmed in one click, and its history then reads across both names; Undo restores.

const TOKEN = "e2e-ingest-token-0123456789abcdef";
const USER = { email: "qa@example.com", password: "correct-horse-battery-staple" };
const HOUR = 3_600_000;

let server: E2eServer;
let page: Page;
browserPerFile((p) => (page = p));

/** A JUnit report of one test whose steps are JUnit `step` properties. */
function report(name: string, at: Date): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites><testsuite name="Orders" tests="1" timestamp="${at.toISOString().slice(0, 19)}">
  <testcase classname="Orders" name="${name}" file="api/orders.spec.ts" time="0.4">
    <properties><property name="step" value="create three orders"/><property name="step1" value="GET /orders?status=open"/></properties>
  </testcase>
</testsuite></testsuites>`;
}

const upload = (name: string, at: Date, key: string) =>
  uploadReportText(
    ingestClient(server.url, TOKEN),
    { name: "junit.xml", type: "application/xml", text: report(name, at) },
    { run_key: key, family: "backend", executor: "orders-nightly", branch: "main" },
  );

beforeAll(async () => {
  server = await startE2eServer({
    ASSAY_INGEST_TOKEN: TOKEN,
    ASSAY_ADMIN_EMAIL: USER.email,
    ASSAY_ADMIN_PASSWORD: USER.password,
  });
  const now = Date.now();
  await upload("filters orders by status", new Date(now - 2 * HOUR), "orders-1");
  await upload("lists orders by status", new Date(now - HOUR), "orders-2");
});
afterAll(async () => {
  await server?.stop();
});

const pastResults = () => page.getByRole("table", { name: "Past results" }).locator("tbody tr");

describe("Renamed Tests", () => {
  it("confirms a suggested rename in one click; the history reads across both names; Undo restores", async () => {
    // The suggestion is searched by a job after the upload (aliases.jobs.ts): the screen opens
    // once it is there.
    await expect
      .poll(
        async () => {
          const res = await fetch(`${server.url}/v1/test-aliases/suggestions`);
          return res.ok ? ((await res.json()) as unknown[]).length : res.status;
        },
        { timeout: 20_000, interval: 250 },
      )
      .toBe(1);
    await signInOnPage(page, server.url, USER, "/renamed-tests");
    const suggestion = page.getByTestId("suggestion-row");
    await suggestion.waitFor();
    expect(await suggestion.innerText()).toMatch(
      /filters orders by status[\s\S]*→[\s\S]*lists orders by status/,
    );
    await screenshot(page, "renamed-tests-1440x900");
    await suggestion.getByRole("button", { name: "Confirm rename" }).click();
    await page.getByText("No suggestion").waitFor();
    const alias = page.getByTestId("alias-row");
    expect(await alias.innerText()).toMatch(/confirmed suggestion, qa@example.com/);

    // The new name's history holds the earlier name's result, marked as such.
    await alias.getByRole("link", { name: /lists orders by status/ }).click();
    await page.getByRole("table", { name: "Past results" }).waitFor();
    await expect.poll(() => pastResults().count()).toBe(2);
    expect(await pastResults().nth(1).innerText()).toMatch(/\(earlier name\)/);
    await screenshot(page, "renamed-history-1440x900");

    // Undo on the history: the earlier name's result is its own again.
    await page
      .getByRole("region", { name: "Renames" })
      .getByRole("button", { name: "Undo" })
      .click();
    await expect.poll(() => pastResults().count()).toBe(1);
    expect(await page.getByRole("region", { name: "Renames" }).innerText()).toMatch(
      /undone by qa@example.com/,
    );
  });
});
