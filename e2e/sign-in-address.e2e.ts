import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserPerFile, screenshot } from "./support/browser.js";
import { addUserWithCli, submitLoginPage } from "./support/oidc-login.js";
import { startE2eServer, type E2eServer } from "./support/server.js";
import { ingestClient, uploadReport } from "./support/uploads.js";

/**
 * Sign-in from another address than ASSAY_PUBLIC_URL, as a default install is often opened:
 * the app at http://127.0.0.1:<port> while the public URL says http://localhost:<port>. A run's
 * dialog is open when Sign in is pressed; after the provider's login page the same dialog is
 * open again, now at the public address, with no console or page error on the way.
 */

const TOKEN = "e2e-address-ingest-token-0123456789abcdef";
const USER = { email: "dana@example.com", name: "Dana Tester" };

let server: E2eServer;
let page: Page;
// A page of its own per test; support/setup.ts fails a test on any console or page error.
browserPerFile((p) => (page = p));
let password: string;

const publicOrigin = () => server.url.replace("127.0.0.1", "localhost");

beforeAll(async () => {
  server = await startE2eServer({ ASSAY_INGEST_TOKEN: TOKEN }, { publicHostname: "localhost" });
  await uploadReport(ingestClient(server.url, TOKEN), ["cucumber/cucumber-report.json"]);
  password = await addUserWithCli(server.dataDir, USER);
});
afterAll(async () => {
  await server?.stop();
});

describe("signing in at another address than ASSAY_PUBLIC_URL", () => {
  it("comes back to the run dialog it started from, signed in", async () => {
    await page.goto(`${server.url}/test_runs`);
    await page.getByRole("table").first().getByRole("row").nth(1).getByRole("link").click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("article").first().waitFor();
    const started = new URL(page.url());
    expect(started.origin).toBe(server.url);
    expect(started.pathname).toMatch(/^\/test_runs\/.+/);
    const title = await dialog
      .getAttribute("aria-labelledby")
      .then((id) => page.locator(`[id="${id}"]`).textContent());

    // What the header's Sign in button does from this page (the dialog covers the header).
    const signIn = await page.getByRole("link", { name: "Sign in", includeHidden: true }).first();
    const href = await signIn.getAttribute("href");
    expect(href).toBe(
      `/auth/login?return_to=${encodeURIComponent(`${started.pathname}${started.search}`)}`,
    );
    await page.goto(`${server.url}${href}`);
    await page.waitForURL(/\/oidc\/interaction\//);
    expect(new URL(page.url()).origin).toBe(publicOrigin());
    await submitLoginPage(page, { email: USER.email, password });

    await page.waitForURL(`${publicOrigin()}${started.pathname}${started.search}`);
    const back = page.getByRole("dialog");
    await back.getByRole("article").first().waitFor();
    expect(
      await back
        .getAttribute("aria-labelledby")
        .then((id) => page.locator(`[id="${id}"]`).textContent()),
    ).toBe(title);
    const me = await page.evaluate(async () => (await fetch("/v1/me")).status);
    expect(me).toBe(200);
    await page.waitForTimeout(400);
    await screenshot(page, "sign-in-address-back-in-run-dialog-1440x900");
  });
});
