import { createServer } from "node:http";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserPerFile, screenshot } from "./support/browser.js";
import { signInOnPage } from "./support/oidc-login.js";
import { startE2eServer, type E2eServer } from "./support/server.js";
import { ingestClient, uploadReport } from "./support/uploads.js";

// Notifications on the Setting screen, in Chromium against the real server: an administrator adds
// a Slack rule through the dialog, a failed run is uploaded, Slack's stand-in receives Block Kit,
// and the screen shows the delivery's outcome in words.

const ADMIN = { email: "lead@example.com", password: "correct-horse-battery-staple" };
const TOKEN = "notify-e2e-ingest-token-0123456789";

let server: E2eServer;
let page: Page;
const received: unknown[] = [];
const slack = createServer((request, response) => {
  let body = "";
  request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
  request.on("end", () => {
    received.push(JSON.parse(body) as unknown);
    response.writeHead(200).end("ok");
  });
});
browserPerFile((p) => (page = p));

beforeAll(async () => {
  await new Promise<void>((resolve) => slack.listen(0, "127.0.0.1", resolve));
  server = await startE2eServer({
    ASSAY_ADMIN_EMAIL: ADMIN.email,
    ASSAY_ADMIN_PASSWORD: ADMIN.password,
    ASSAY_INGEST_TOKEN: TOKEN,
    ASSAY_WEBHOOK_ALLOW_PRIVATE: "true",
    // Sent as soon as the upload is stored: no wait for more shards of the run.
    ASSAY_NOTIFY_SETTLE_SECONDS: "0",
  });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await new Promise((resolve) => slack.close(resolve));
});

describe("Notifications", () => {
  it("an administrator adds a Slack rule, a failed run is sent, and the screen shows it sent", async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signInOnPage(page, server.url, ADMIN, "/settings");
    const section = page.getByRole("heading", { name: "Notifications" });
    await section.waitFor();
    await page.getByText(/No notifications yet/).waitFor();
    await page.getByRole("button", { name: "Add notification" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("textbox", { name: /^Name/ }).fill("UI failures to #qa");
    await dialog.getByLabel("Branch").fill("main");
    const { port } = slack.address() as { port: number };
    await dialog.getByLabel(/^Webhook URL/).fill(`http://127.0.0.1:${port}/services/T0/B0/x`);
    await screenshot(page, "notify-dialog");
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.waitFor({ state: "detached" });
    await page.getByRole("cell", { name: "UI failures to #qa" }).waitFor();

    const key = await uploadReport(ingestClient(server.url, TOKEN), ["junit/jest-junit.xml"], {
      family: "frontend",
      branch: "main",
    });
    const until = Date.now() + 60_000;
    while (received.length === 0 && Date.now() < until)
      await new Promise((r) => setTimeout(r, 250));
    const payload = received[0] as { blocks: { type: string }[]; text: string };
    expect(payload.blocks[0]?.type).toBe("header");
    expect(payload.text).toContain(`/test_runs/${key}`);

    await page.reload();
    await page.getByRole("table", { name: "Notifications" }).getByText("Sent").waitFor();
    await screenshot(page, "notify-settings");
  }, 180_000);
});
