import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserPerFile, screenshot } from "./support/browser.js";
import { signInOnPage } from "./support/oidc-login.js";
import { ingestClient, uploadReportText } from "./support/uploads.js";
import { startE2eServer, type E2eServer } from "./support/server.js";

// Flaky Tests (issue 35) in real Chromium against the real server: JUnit reports uploaded
// through the real ingestion API, one test flipping, one failing once then passing.

const TOKEN = "e2e-ingest-token-0123456789abcdef";
const USER = { email: "qa@example.com", password: "correct-horse-battery-staple" };
const HOUR = 3_600_000;

let server: E2eServer;
let page: Page;
browserPerFile((p) => (page = p));

function junitReport(startedAt: Date, outcomes: Record<number, "passed" | "failed">): string {
  const cases = Object.entries(outcomes).map(([id, outcome]) => {
    const failure =
      outcome === "failed"
        ? `<failure message="Timed out after 30000ms waiting for #pay">TimeoutError</failure>`
        : "";
    return `<testcase classname="Checkout" name="Checkout pays ${id} @TC${id}" time="1.5">${failure}</testcase>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="Checkout" tests="${cases.length}" timestamp="${startedAt.toISOString().slice(0, 19)}">
  ${cases.join("\n  ")}
</testsuite>`;
}

beforeAll(async () => {
  server = await startE2eServer({
    ASSAY_INGEST_TOKEN: TOKEN,
    ASSAY_ADMIN_EMAIL: USER.email,
    ASSAY_ADMIN_PASSWORD: USER.password,
  });
  const ingest = ingestClient(server.url, TOKEN);
  const now = Date.now();
  for (let i = 0; i < 6; i++) {
    const xml = junitReport(new Date(now - (6 - i) * HOUR), {
      9201: i % 2 ? "failed" : "passed",
      9202: i === 3 ? "failed" : "passed",
      9203: "passed",
    });
    await uploadReportText(
      ingest,
      { name: "junit.xml", type: "application/xml", text: xml },
      { test_run_name: "checkout nightly", branch: "main" },
    );
  }
});
afterAll(async () => {
  await server?.stop();
});

const rows = () => page.getByRole("table", { name: "Flaky tests" }).locator("tbody tr");

describe("Flaky Tests", () => {
  it("ranks the flipping test first with its window, and opens its evidence", async () => {
    await page.goto(`${server.url}/flaky`);
    await rows().first().getByText("Checkout pays 9201").waitFor();
    expect(await rows().count()).toBe(2);
    expect(await rows().nth(0).innerText()).toMatch(/TC9201 · frontend · main[\s\S]*1\.00/);
    expect(await rows().nth(1).innerText()).toContain("Checkout pays 9202");
    await screenshot(page, "flaky-1440x900");

    await rows()
      .first()
      .getByRole("link", { name: /Checkout pays 9201/ })
      .click();
    await page.getByText("Where it flipped (5)").waitFor();
    await page.getByRole("link", { name: /Timed out after <duration> waiting for #pay/ }).waitFor();
    await screenshot(page, "flaky-evidence-1440x900");
  });

  it("signed in, tags a flaky test '@unstable' in one click", async () => {
    await signInOnPage(page, server.url, USER, "/flaky");
    const first = rows().first();
    await first.getByRole("button", { name: "Tag @unstable" }).click();
    await first.getByText("@unstable", { exact: true }).waitFor();
    const list = (await (await fetch(`${server.url}/v1/dtag`)).json()) as {
      byTag: Record<string, { test_ids: number[] }>;
    };
    expect(list.byTag["@unstable"]?.test_ids).toEqual([9201]);
  });

  it("shows the score in the test's history", async () => {
    await page.goto(`${server.url}/history/9201`);
    await page.getByRole("link", { name: /Flaky 1\.00 · frontend · main/ }).waitFor();
  });
});
