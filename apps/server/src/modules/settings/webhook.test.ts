import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../../../test/build-test-app.js";
import { QA_USER } from "../../../test/tag-apps.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { startReceiver } from "../../../test/webhook-receiver.js";
import { deliverWebhook, webhookBody, type RunSummary } from "./webhook.js";
import { maskWebhookUrl, webhookUrlProblem } from "./webhook-url.js";

/** Webhook URLs: the rules when saved, who sees them in full, and one delivery's outcomes. */

const strict = { allowPrivate: false };
const lan = { allowPrivate: true };
const SECRET_URL = "https://hooks.example.com/services/T000/B000/s3cr3t";

describe("webhookUrlProblem", () => {
  it("takes https to a public host", () => {
    expect(webhookUrlProblem(SECRET_URL, strict)).toBeUndefined();
    expect(webhookUrlProblem("https://93.184.215.14/hook", strict)).toBeUndefined();
  });

  it("refuses http, loopback, private, link-local and credentials, saying what to do", () => {
    expect(webhookUrlProblem("http://hooks.example.com/x", strict)).toContain("must use https");
    expect(webhookUrlProblem("ftp://hooks.example.com/x", strict)).toContain("must use https");
    for (const url of [
      "https://localhost/x",
      "https://api.localhost/x",
      "https://127.0.0.1/x",
      "https://10.1.2.3/x",
      "https://192.168.0.10/x",
      "https://169.254.169.254/latest/meta-data",
      "https://[::1]/x",
      "https://[fd00::1]/x",
      "https://[::ffff:127.0.0.1]/x",
    ]) {
      expect(webhookUrlProblem(url, strict), url).toContain("ASSAY_WEBHOOK_ALLOW_PRIVATE=true");
    }
    expect(webhookUrlProblem("https://u:p@hooks.example.com/x", strict)).toContain("user name");
    expect(webhookUrlProblem("not a url", strict)).toContain("is not a URL");
  });

  it("with ASSAY_WEBHOOK_ALLOW_PRIVATE takes private hosts, over http too, but not public http", () => {
    expect(webhookUrlProblem("http://127.0.0.1:9000/hook", lan)).toBeUndefined();
    expect(webhookUrlProblem("https://10.1.2.3/x", lan)).toBeUndefined();
    expect(webhookUrlProblem("http://hooks.example.com/x", lan)).toContain("must use https");
  });

  it("masks everything after the origin", () => {
    expect(maskWebhookUrl(SECRET_URL)).toBe("https://hooks.example.com/…");
  });
});

const SUMMARY: RunSummary = {
  schedule: { id: 1, name: "Nightly <UI>" },
  build: { id: "7", status: "SUCCEEDED", isRerun: true },
  run: {
    key: "frontend-1",
    name: "2026-05-01 nightly",
    family: "frontend",
    total: 3,
    passed: 2,
    failed: 1,
    unstable: 0,
    skipped: 0,
    flaky: 1,
    url: "http://assay.test/test_runs/frontend-1",
  },
  newFailures: { count: 1, items: [{ testId: 9102, name: "TC9102 checks out" }] },
};

describe("deliverWebhook against a real receiver", () => {
  it("POSTs Slack's {text} with counts, new failures and the link", async () => {
    const receiver = await startReceiver();
    try {
      await deliverWebhook(`${receiver.url}/slack`, webhookBody("slack", SUMMARY), lan);
      const [request] = receiver.received;
      expect(request?.headers["content-type"]).toBe("application/json");
      const text = (request?.body as { text: string }).text;
      expect(text).toContain("*Nightly &lt;UI&gt;*");
      expect(text).toContain("<http://assay.test/test_runs/frontend-1|2026-05-01 nightly>");
      expect(text).toContain("3 tests: 2 passed, 1 failed, 0 skipped");
      expect(text).toContain("New failures (1):\n• TC9102 checks out");
    } finally {
      await receiver.close();
    }
  });

  it("throws on a non-2xx answer and on a timeout, never naming the URL's path", async () => {
    const receiver = await startReceiver((n) => (n === 1 ? 503 : "hang"));
    try {
      const url = `${receiver.url}/secret-path`;
      await expect(deliverWebhook(url, {}, lan)).rejects.toThrow("the webhook answered HTTP 503");
      const slow = deliverWebhook(url, {}, lan, 300);
      await expect(slow).rejects.toThrow("no answer within 0.3 s");
      await expect(slow).rejects.not.toThrow("secret-path");
    } finally {
      await receiver.close();
    }
  });

  it("refuses a loopback receiver unless private addresses are allowed", async () => {
    const receiver = await startReceiver();
    try {
      await expect(deliverWebhook(`${receiver.url}/x`, {}, strict)).rejects.toThrow(
        "loopback or private",
      );
      expect(receiver.received).toHaveLength(0);
    } finally {
      await receiver.close();
    }
  });
});

describe("webhook on /v1/setting", () => {
  let database: TestDatabase;
  let user: FastifyInstance;
  let admin: FastifyInstance;
  let anonymous: FastifyInstance;
  const options = { startWorkers: false } as const;

  beforeAll(async () => {
    database = await createTestDatabase();
    user = (await buildTestApp(database.db, { ...options, resolvePrincipal: async () => QA_USER }))
      .app;
    admin = (
      await buildTestApp(database.db, {
        ...options,
        resolvePrincipal: async () => ({ ...QA_USER, email: "lead@example.com", admin: true }),
      })
    ).app;
    anonymous = (
      await buildTestApp(database.db, { ...options, resolvePrincipal: async () => undefined })
    ).app;
  });
  afterAll(async () => {
    await Promise.all([user.close(), admin.close(), anonymous.close()]);
    await database.drop();
  });

  const stored = async (id: number) =>
    (
      await database.db.pool.query(
        "SELECT webhook_url, webhook_format FROM settings WHERE id = $1",
        [id],
      )
    ).rows[0];

  it("refuses a private or http URL with 400 and saves nothing", async () => {
    for (const [webhookUrl, message] of [
      ["http://hooks.example.com/x", "must use https"],
      ["https://10.0.0.5/hook", "ASSAY_WEBHOOK_ALLOW_PRIVATE"],
    ] as const) {
      const res = await user.inject({
        method: "POST",
        url: "/v1/setting",
        payload: { name: "hooked", webhookUrl },
      });
      expect(res.statusCode, webhookUrl).toBe(400);
      expect(res.json().error.message).toContain(message);
    }
    const { rows } = await database.db.pool.query("SELECT 1 FROM settings WHERE name = 'hooked'");
    expect(rows).toHaveLength(0);
  });

  it("shows the URL in full to administrators only; a PUT without it keeps it", async () => {
    const created = await user.inject({
      method: "POST",
      url: "/v1/setting",
      payload: { name: "slack me", webhookUrl: SECRET_URL, webhookFormat: "slack" },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().id as number;
    expect(created.json().webhook).toEqual({
      url: "https://hooks.example.com/…",
      format: "slack",
      masked: true,
    });
    const find = async (app: FastifyInstance) =>
      (await app.inject({ method: "GET", url: "/v1/setting" }))
        .json()
        .find((s: { id: number }) => s.id === id).webhook;
    expect((await find(anonymous)).url).toBe("https://hooks.example.com/…");
    expect(await find(admin)).toEqual({ url: SECRET_URL, format: "slack", masked: false });
    expect(JSON.stringify(await find(user))).not.toContain("s3cr3t");

    const edited = await user.inject({
      method: "PUT",
      url: `/v1/setting/${id}`,
      payload: { name: "slack me", description: "renamed only" },
    });
    expect(edited.statusCode).toBe(200);
    expect(await stored(id)).toEqual({ webhook_url: SECRET_URL, webhook_format: "slack" });
    await user.inject({
      method: "PUT",
      url: `/v1/setting/${id}`,
      payload: { name: "slack me", webhookUrl: null },
    });
    expect(await stored(id)).toEqual({ webhook_url: null, webhook_format: null });
  });
});
