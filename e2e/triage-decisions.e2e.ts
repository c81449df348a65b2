import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserPerFile, screenshot } from "./support/browser.js";
import { signInOnPage } from "./support/oidc-login.js";
import { ingestClient, uploadReportText, type Ingest } from "./support/uploads.js";
import { startE2eServer, type E2eServer } from "./support/server.js";

// Triage's decisions (issue 34) in real Chromium against the real server: a signed-in person
// sets a cause's defect type and bug key for all its failures in a run; the next run's failures
// of the same cause arrive with that decision taken automatically, and one click accepts it.

const TOKEN = "e2e-ingest-token-0123456789abcdef";
const USER = { email: "qa@example.com", password: "correct-horse-battery-staple" };

let server: E2eServer;
let page: Page;
let ingest: Ingest;
browserPerFile((p) => (page = p));

/** Two checkout tests failing through one helper (their order numbers differ), one passing. */
function junitReport(startedAt: Date, orders: [number, number]): string {
  const failure = (order: number) => {
    const message = `expected 200 but got 500 for /api/orders/${order}`;
    const stack = `AssertionError: ${message}\n    at OrderClient.fetch (tests/support/orders.ts:41:11)\n    at Context.<anonymous> (tests/checkout.spec.ts:12:5)`;
    return `<failure message="${message}" type="AssertionError">${stack.replace(/</g, "&lt;").replace(/>/g, "&gt;")}</failure>`;
  };
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="Checkout" tests="3" timestamp="${startedAt.toISOString().slice(0, 19)}">
  <testcase classname="Checkout" name="lists orders" time="1.5">${failure(orders[0])}</testcase>
  <testcase classname="Checkout" name="shows an order" time="1.2">${failure(orders[1])}</testcase>
  <testcase classname="Checkout" name="pays" time="0.9"/>
</testsuite>`;
}

const upload = (startedAt: Date, orders: [number, number]) =>
  uploadReportText(
    ingest,
    { name: "junit.xml", type: "application/xml", text: junitReport(startedAt, orders) },
    { test_run_name: "checkout nightly", branch: "main" },
  );

beforeAll(async () => {
  server = await startE2eServer({
    ASSAY_INGEST_TOKEN: TOKEN,
    ASSAY_ADMIN_EMAIL: USER.email,
    ASSAY_ADMIN_PASSWORD: USER.password,
  });
  ingest = ingestClient(server.url, TOKEN);
});
afterAll(async () => {
  await server?.stop();
});

const causes = () => page.getByTestId("result-cause");

async function chipsOf(): Promise<string[]> {
  await causes().first().waitFor();
  // Each card's type chip (its bug keys follow it, then its group's words).
  return causes().locator(".MuiChip-label").allTextContents();
}

describe("triage decisions, signed in", () => {
  it("sets a cause's type and bug for the run; the next run takes it (auto) and one click accepts it", async () => {
    const first = await upload(new Date(Date.now() - 3_600_000), [11, 12]);
    await signInOnPage(page, server.url, USER, `/test_runs/${first}`);
    expect(await chipsOf()).toEqual(["To investigate", "To investigate"]);

    await causes().first().getByRole("button", { name: "Set type" }).click();
    const dialog = page.getByRole("dialog", { name: "Set the defect type" });
    await dialog.getByLabel("All 2 failures of this cause in this run").check();
    await dialog.getByRole("combobox", { name: "Defect type" }).click();
    await page.getByRole("option", { name: "Product bug" }).click();
    await dialog.getByLabel("Bug keys").fill("shop-42");
    await dialog.getByRole("button", { name: "Set for all 2" }).click();
    await dialog.getByText("Recorded on 2 failures.").waitFor();
    await page.keyboard.press("Escape");
    await expect.poll(chipsOf).toEqual(["Product bug", "Product bug"]);

    // The same cause the next night (other order numbers): decided before, taken automatically.
    const second = await upload(new Date(), [57, 58]);
    await page.goto(`${server.url}/test_runs/${second}`);
    await expect.poll(chipsOf).toEqual(["Product bug (auto)", "Product bug (auto)"]);
    expect(await causes().getByLabel("Bugs of the decision").allTextContents()).toEqual([
      "SHOP-42",
      "SHOP-42",
    ]);
    const api = (await (await fetch(`${server.url}/v1/runs/${second}/failure-groups`)).json()) as {
      isNew: boolean;
      defect: { type: string; auto: boolean; bugs: string[] };
    }[];
    expect(api).toHaveLength(1);
    expect(api[0]).toMatchObject({
      isNew: false,
      defect: { type: "product_bug", auto: true, bugs: ["SHOP-42"] },
    });
    await screenshot(page, "triage-decided-before");

    // Accepted: the person's own decision now, on that result only.
    await causes().first().getByRole("button", { name: "Accept" }).click();
    await expect.poll(chipsOf).toEqual(["Product bug", "Product bug (auto)"]);
  });
});
