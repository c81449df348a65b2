import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserPerFile, screenshot } from "./support/browser.js";
import { startE2eServer, type E2eServer } from "./support/server.js";
import { ingestClient, uploadReport, XSS, type Ingest } from "./support/uploads.js";

// A result's text attachments in the test detail dialog: the real cucumber-js report's text
// embedding, and a long log attached through the live API, read in Chromium.

const TOKEN = "e2e-ingest-token-0123456789abcdef";
/** The dialog shows this much of a text attachment (AttachmentList's TEXT_PREVIEW_BYTES). */
const PREVIEW_BYTES = 64 * 1024;
const LOG_LINE = "GET /api/orders 200 12ms\n";
const LOG = `${XSS}\n${LOG_LINE.repeat(8000)}`;

let server: E2eServer;
let ingest: Ingest;
let page: Page;
const alerts: string[] = [];
// A page of its own per test; support/setup.ts fails a test on any console or page error.
browserPerFile((p) => {
  page = p;
  // An alert would mean the attachment's text ran as HTML.
  page.on("dialog", (dialog) => {
    alerts.push(dialog.message());
    void dialog.dismiss();
  });
});
let cucumberKey: string;
let invoiceKey: string;
let liveKey: string;

/** A live run with one failed test and LOG attached to it as server.log. */
async function uploadLogRun(): Promise<string> {
  const run = (await ingest.postJson("/v1/ingest/runs", { family: "frontend" })) as {
    test_run_key: string;
  };
  const key = run.test_run_key;
  await ingest.postJson(`/v1/ingest/runs/${key}/results`, [
    { test_run_test_id: "orders-1", name: "lists orders", status: "failed" },
  ]);
  const form = new FormData();
  form.append("file", new Blob([LOG], { type: "text/plain" }), "server.log");
  await ingest.api(`/v1/ingest/runs/${key}/results/orders-1/attachments`, {
    method: "POST",
    body: form,
  });
  await ingest.postJson(`/v1/ingest/runs/${key}/finish`, {});
  return key;
}

beforeAll(async () => {
  server = await startE2eServer({ ASSAY_INGEST_TOKEN: TOKEN });
  ingest = ingestClient(server.url, TOKEN);
  cucumberKey = await uploadReport(ingest, ["cucumber/cucumber-report.json"]);
  const run = (await ingest.api(`/v1/test-runs/${cucumberKey}`)) as {
    results: { test_run_test_id: string; name: string }[];
  };
  const invoice = run.results.find((r) => r.name === "Pay by invoice");
  if (!invoice) throw new Error("the cucumber fixture changed: no 'Pay by invoice'");
  invoiceKey = invoice.test_run_test_id;
  liveKey = await uploadLogRun();
});
afterAll(async () => {
  await server?.stop();
});

const attachments = () =>
  page.getByRole("dialog").getByRole("region", { name: "Attachments", exact: true });

describe("the test detail's attachments", () => {
  it("shows the cucumber-js report's text embedding as text, after its step", async () => {
    await page.goto(`${server.url}/test_runs/${cucumberKey}/${encodeURIComponent(invoiceKey)}`);
    const text = attachments().locator("pre");
    await text.waitFor();
    expect(await text.textContent()).toBe("invoice requested");
    // The embedding is unnamed, so it is titled after its step: the caption gives the step's
    // number and does not say its words a second time.
    const shown = (await attachments().textContent()) ?? "";
    expect(shown).toMatch(/text\/plain · 17 bytes · after step \d+(?![\d:])/);
    const title = (await attachments().getByRole("figure").getAttribute("aria-label")) ?? "";
    expect(title).not.toBe("");
    expect(shown.split(title)).toHaveLength(2);
    const download = attachments().getByRole("link", { name: /^Download / });
    expect(await download.getAttribute("href")).toMatch(/^\/v1\/objects\/.+\.txt$/);
    await screenshot(page, "attachments-cucumber-text-1440x900");
  });

  it("shows the start of a long log, escaped, and says the rest is a download away", async () => {
    await page.goto(`${server.url}/test_runs/${liveKey}/orders-1`);
    const text = attachments().locator("pre");
    await text.waitFor();
    const shown = (await text.textContent()) ?? "";
    expect(shown).toBe(LOG.slice(0, PREVIEW_BYTES));
    expect(await attachments().textContent()).toContain(
      "The first 64 KB of 195 KB; download the whole file for the rest.",
    );
    expect(await page.locator("[role=dialog] pre img").count()).toBe(0);
    expect(alerts).toEqual([]);
    const download = attachments().getByRole("link", { name: "Download server.log" });
    expect(await download.getAttribute("download")).toBe("server.log");
    const whole = await page.request.get(`${server.url}${await download.getAttribute("href")}`);
    expect((await whole.body()).length).toBe(LOG.length);
  });
});
