import type { Setting } from "@assay/core";
import { describe, expect, it } from "vitest";
import { initialWebhook, webhookBody } from "./WebhookFields";

/** What the editor sends for a schedule's webhook: a masked URL is never sent back. */

const setting = (webhook: Setting["webhook"]) => ({ webhook }) as Setting;
const MASKED = setting({ url: "https://hooks.slack.com/…", format: "slack", masked: true });
const FULL = setting({
  url: "https://hooks.slack.com/services/T/B/x",
  format: "json",
  masked: false,
});

describe("webhook fields", () => {
  it("starts empty under a masked URL, and full for an administrator", () => {
    expect(initialWebhook(MASKED)).toEqual({ choice: "slack", url: "" });
    expect(initialWebhook(FULL)).toEqual({
      choice: "json",
      url: "https://hooks.slack.com/services/T/B/x",
    });
    expect(initialWebhook(null)).toEqual({ choice: "none", url: "" });
  });

  it("leaves a masked URL out (the server keeps it), and sends null for No webhook", () => {
    expect(webhookBody({ choice: "slack", url: "" }, MASKED)).toEqual({ webhookFormat: "slack" });
    expect(webhookBody({ choice: "none", url: "" }, MASKED)).toEqual({ webhookUrl: null });
    expect(webhookBody({ choice: "json", url: " https://x.example/h " }, MASKED)).toEqual({
      webhookUrl: "https://x.example/h",
      webhookFormat: "json",
    });
    expect(webhookBody({ choice: "slack", url: "" }, null)).toEqual({
      webhookUrl: null,
      webhookFormat: "slack",
    });
  });
});
