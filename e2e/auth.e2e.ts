import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allowConsoleErrors, browserPerFile, screenshot } from "./support/browser.js";
import { addUserWithCli, signInOnPage, submitLoginPage } from "./support/oidc-login.js";
import { startE2eServer, type E2eServer } from "./support/server.js";
import { ingestClient, uploadReport } from "./support/uploads.js";

/**
 * Sign-in in a real Chromium against the embedded provider: public reading, Sign in, the
 * provider's login page, back on the same screen, the greeting, the Profile dialog, sign-out
 * (the session gone for good); then signed-in mode, where every path asks to sign in first.
 * Each test opens its own page (its own cookies) and signs in itself where it needs to.
 */

const TOKEN = "e2e-auth-ingest-token-0123456789abcdef";
const ERIN = { email: "erin@example.com", name: "Erin Tester" };
// The Profile test renames its user: another user, so the greeting the others expect holds.
const PAT = { email: "pat@example.com", name: "Pat Tester" };

let page: Page;
// A page of its own per test; support/setup.ts fails a test on any console or page error.
browserPerFile((p) => (page = p));

/** The address users open: support/server.ts sets ASSAY_PUBLIC_URL to the server's URL. */
const publicUrl = (server: E2eServer) => server.url;

const header = (page: Page) => page.getByRole("banner");

describe("sign-in in public read mode", () => {
  let server: E2eServer;
  let erin: { email: string; password: string };
  let pat: { email: string; password: string };
  let base: string;

  beforeAll(async () => {
    server = await startE2eServer({ ASSAY_INGEST_TOKEN: TOKEN });
    base = publicUrl(server);
    await uploadReport(ingestClient(server.url, TOKEN), ["cucumber/cucumber-report.json"]);
    erin = { email: ERIN.email, password: await addUserWithCli(server.dataDir, ERIN) };
    pat = { email: PAT.email, password: await addUserWithCli(server.dataDir, PAT) };
    // A server, an upload and two CLI runs: more than the default on a busy machine.
  }, 240_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("shows the lists to a signed-out visitor, with a Sign in button", async () => {
    await page.goto(`${base}/test_runs`);
    await page.getByRole("link", { name: "Sign in" }).waitFor();
    // The uploaded cucumber report's run, listed for a visitor who is not signed in.
    await page.getByRole("table").first().getByRole("row").nth(1).waitFor();
    await screenshot(page, "auth-header-signed-out");
  });

  it("signs in on the provider's page and lands back on the same screen, greeted", async () => {
    await page.goto(`${base}/test_runs`);
    await page.getByRole("link", { name: "Sign in" }).click();
    await page.waitForURL(/\/oidc\/interaction\//);
    await screenshot(page, "auth-login-page");
    await submitLoginPage(page, erin);
    await page.waitForURL(`${base}/test_runs`);
    await header(page).getByText(`Hello, ${ERIN.name}`).waitFor();
    await screenshot(page, "auth-header-signed-in");
  });

  it("edits the profile in the Profile dialog", async () => {
    await signInOnPage(page, base, pat, "/test_runs");
    await header(page).getByText(`Hello, ${PAT.name}`).waitFor();
    await page.getByRole("button", { name: "Account menu" }).click();
    await page.getByRole("menuitem", { name: "Sign out" }).waitFor();
    // MUI's menu and dialog fade in: let the transitions end before a picture is taken.
    await page.waitForTimeout(400);
    await screenshot(page, "auth-account-menu");
    await page.getByRole("menuitem", { name: "Profile" }).click();
    const dialog = page.getByRole("dialog", { name: "Profile" });
    await dialog.waitFor();
    expect(await dialog.getByLabel("Email").inputValue()).toBe(PAT.email);
    expect(await dialog.getByLabel("Email").getAttribute("readonly")).not.toBeNull();
    await dialog.getByRole("textbox", { name: "Name", exact: true }).fill("Pat Analyst");
    await dialog.getByLabel("Test-management username").fill("pat.spira");
    await dialog.getByLabel("Test-management password or API key").fill("spira-key-123");
    await dialog.getByRole("heading", { name: "Profile" }).click();
    await page.waitForTimeout(400);
    await screenshot(page, "auth-profile-dialog");
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.waitFor({ state: "hidden" });
    await header(page).getByText("Hello, Pat Analyst").waitFor();

    const me = await page.evaluate(async () => (await fetch("/v1/me")).json());
    expect(me).toMatchObject({
      name: "Pat Analyst",
      spira_user: "pat.spira",
      spira_pass_set: true,
    });
    expect(JSON.stringify(me)).not.toContain("spira-key-123");
  });

  it("signs out here and at the provider, and the old session cookie is worth nothing", async () => {
    await signInOnPage(page, base, erin, "/test_runs");
    await header(page).getByText(`Hello, ${ERIN.name}`).waitFor();
    const cookies = await page.context().cookies(base);
    const session = cookies.find((c) => c.name === "assay_session");
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax" });

    await page.getByRole("button", { name: "Account menu" }).click();
    await page.getByRole("menuitem", { name: "Sign out" }).click();
    await header(page).getByRole("link", { name: "Sign in" }).waitFor({ timeout: 20_000 });
    expect(new URL(page.url()).origin).toBe(base);
    // Back on the page signed out from (readable signed out), not the Dashboard (issue 32).
    await page.waitForURL((url) => url.pathname === "/test_runs", { timeout: 20_000 });

    // Nobody is signed in: an answer, not an error.
    const now = await page.evaluate(async () => (await fetch("/v1/me")).json());
    expect(now).toEqual({ signed_in: false });
    const replay = await fetch(`${server.url}/v1/me`, {
      headers: { cookie: `assay_session=${session?.value ?? ""}` },
    });
    expect(await replay.json()).toEqual({ signed_in: false });
    // Signing in again goes through the provider's login page: its session ended too.
    await page.goto(`${base}/auth/login?return_to=/dtags`);
    await page.getByRole("heading", { name: "Sign in to Assay" }).waitFor();
  });
});

describe("signed-in read mode", () => {
  let server: E2eServer;
  let erin: { email: string; password: string };
  let base: string;

  beforeAll(async () => {
    server = await startE2eServer({ ASSAY_READ_ACCESS: "signed-in" });
    base = publicUrl(server);
    erin = { email: ERIN.email, password: await addUserWithCli(server.dataDir, ERIN) };
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("asks to sign in first on every path, and refuses the API", async () => {
    for (const route of [
      "/",
      "/dashboard",
      "/test_runs/run-1/7?be=1",
      "/top_fails",
      "/history/12",
      "/dtags",
      "/settings",
      "/print/run-1/7",
      "/no-such-screen",
    ]) {
      await page.goto(`${base}${route}`);
      await page.getByRole("heading", { name: "Sign in to Assay" }).waitFor();
      expect(page.url(), route).toContain("/oidc/interaction/");
    }
    expect((await fetch(`${server.url}/v1/test-runs`)).status).toBe(401);
    // A callback this browser did not start is refused, saying what to do.
    // The forged callback's refusal (401) is what this step shows.
    allowConsoleErrors(page, /status of 401 .*\/auth\/callback\?code=stolen/);
    await page.goto(`${base}/auth/callback?code=stolen&state=forged`);
    await page.getByRole("heading", { name: "Sign-in failed" }).waitFor();
    expect(await page.getByRole("alert").textContent()).toContain("Sign in again");
    await screenshot(page, "auth-callback-refused");
    expect((await fetch(`${server.url}/v1/catalog`)).status).toBe(401);
  });

  it("lets the signed-in user in, on the path first asked for", async () => {
    await page.goto(`${base}/top_fails`);
    await submitLoginPage(page, erin);
    await page.waitForURL(`${base}/top_fails`);
    await header(page).getByText(`Hello, ${ERIN.name}`).waitFor();
    await screenshot(page, "auth-signed-in-mode");
  });
});
