import type { FastifyInstance } from "fastify";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NotifyRule, NotifyRuleList } from "@assay/core";
import { buildTestApp } from "../../../test/build-test-app.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { fixturePart, upload } from "../../../test/upload.js";
import { until } from "../../../test/until.js";
import { startReceiver } from "../../../test/webhook-receiver.js";
import type { Principal } from "../auth/access.js";

/**
 * Notifications end to end: rules saved through the API (secrets sealed, never answered), runs
 * uploaded as CI uploads them, and deliveries received by a real SMTP server and by real HTTP
 * servers standing for Slack's and Teams' webhooks, which check the payloads' shape.
 */

const ADMIN: Principal = {
  kind: "user",
  id: 1,
  email: "lead@example.com",
  name: "Lead",
  admin: true,
};
const QA: Principal = { ...ADMIN, email: "qa@example.com", admin: false };
const PUBLIC_URL = "https://assay.example.com";
const FAILING = () => fixturePart("junit", "jest-junit.xml");
const PASSING = () => fixturePart("junit", "jest-junit-nameless.xml");

interface Mail {
  from: string;
  to: string[];
  raw: string;
  user?: string;
}

async function startSmtp() {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    hideSTARTTLS: true,
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (auth.username === "mailer" && auth.password === "smtp-pa55")
        callback(null, { user: auth.username });
      else callback(new Error("Invalid username or password"));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
          user: session.user as string | undefined,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    port,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let database: TestDatabase;
let admin: FastifyInstance;
let qa: FastifyInstance;
let slack: Awaited<ReturnType<typeof startReceiver>>;
let teams: Awaited<ReturnType<typeof startReceiver>>;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
// Uploads are sent as soon as they are stored here (no wait for more shards: notify-runs.test.ts).
const env = {
  ASSAY_WEBHOOK_ALLOW_PRIVATE: "true",
  ASSAY_PUBLIC_URL: PUBLIC_URL,
  ASSAY_NOTIFY_SETTLE_SECONDS: "0",
};

beforeAll(async () => {
  database = await createTestDatabase();
  // Slack answers 429 with Retry-After once: the delivery must wait, then succeed.
  slack = await startReceiver((n) =>
    n === 1 ? { status: 429, headers: { "retry-after": "2" } } : 200,
  );
  teams = await startReceiver();
  smtp = await startSmtp();
  admin = (await buildTestApp(database.db, { env, resolvePrincipal: async () => ADMIN })).app;
  qa = (
    await buildTestApp(database.db, { env, resolvePrincipal: async () => QA, startWorkers: false })
  ).app;
}, 120_000);

afterAll(async () => {
  await Promise.all([admin?.close(), qa?.close()]);
  await Promise.all([slack?.close(), teams?.close(), smtp?.close()]);
  await database?.drop();
});

async function addRule(body: object): Promise<NotifyRule> {
  const response = await admin.inject({ method: "POST", url: "/v1/notify/rules", payload: body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<NotifyRule>();
}

async function rules(): Promise<NotifyRule[]> {
  return (await admin.inject({ method: "GET", url: "/v1/notify/rules" })).json<NotifyRuleList>()
    .rules;
}

describe("notification rules", () => {
  const slackSecret = () => `${slack.url}/services/T0/B0/slack-s3cret`;

  it("saves the webhook URL sealed and never answers it", async () => {
    const rule = await addRule({
      name: "UI main failures",
      channel: "slack",
      when: "failure",
      filters: { branch: "main", family: "frontend" },
      secret: slackSecret(),
    });
    expect(rule.hasSecret).toBe(true);
    expect(rule.target).toBe(`${slack.url}/…`);
    expect(JSON.stringify(await rules())).not.toContain("slack-s3cret");
    const { rows } = await database.db.pool.query<{ secret: Buffer }>(
      "SELECT secret FROM notify_rules",
    );
    expect(rows[0]!.secret.toString("latin1")).not.toContain("slack-s3cret");
  });

  it("refuses what it cannot send, in words, and non-administrators", async () => {
    const noUrl = await admin.inject({
      method: "POST",
      url: "/v1/notify/rules",
      payload: { name: "x", channel: "teams", when: "always" },
    });
    expect(noUrl.json().error.message).toContain("needs its webhook URL");
    const byQa = await qa.inject({
      method: "POST",
      url: "/v1/notify/rules",
      payload: { name: "x", channel: "teams", when: "always", secret: `${teams.url}/x` },
    });
    expect(byQa.statusCode).toBe(403);
    expect((await qa.inject({ method: "GET", url: "/v1/notify/rules" })).statusCode).toBe(200);
  });

  it("delivers a failed run to Slack (after its 429), Teams and email, once each", async () => {
    await addRule({
      name: "Everything to Teams",
      channel: "teams",
      when: "always",
      secret: `${teams.url}/workflows/x`,
    });
    await addRule({
      name: "Mail the leads",
      channel: "email",
      when: "failure",
      email: {
        host: "127.0.0.1",
        port: smtp.port,
        user: "mailer",
        from: "assay@example.com",
        to: ["lead@example.com", "qa@example.com"],
      },
      secret: "smtp-pa55",
    });
    const fields = {
      family: "frontend",
      branch: "main",
      run_key: "nightly-1",
      test_run_name: "Nightly UI",
    };
    expect((await upload(admin, [FAILING()], fields)).statusCode).toBe(201);

    const [card] = await teams.waitFor(1);
    const attachment = card!.body as {
      type: string;
      attachments: { contentType: string; content: Record<string, unknown> }[];
    };
    expect(attachment.type).toBe("message");
    expect(attachment.attachments[0]!.contentType).toBe("application/vnd.microsoft.card.adaptive");
    const content = attachment.attachments[0]!.content as {
      type: string;
      version: string;
      body: {
        type: string;
        inlines?: { text: string }[];
        facts?: { title: string; value: string }[];
      }[];
      actions: { type: string; url: string }[];
    };
    expect(content.type).toBe("AdaptiveCard");
    expect(content.body[0]!.inlines![0]!.text).toMatch(/^FAILED: Nightly UI \(2 of \d+ failed\)$/);
    expect(content.body.find((b) => b.type === "FactSet")?.facts).toContainEqual({
      title: "Failed",
      value: "2",
    });
    expect(content.actions[0]).toEqual({
      type: "Action.OpenUrl",
      title: "Open in Assay",
      url: `${PUBLIC_URL}/test_runs/nightly-1`,
    });

    const mail = await until("the email", () => smtp.mails[0]);
    expect(mail.user).toBe("mailer");
    expect(mail.to).toEqual(["lead@example.com", "qa@example.com"]);
    expect(mail.raw).toMatch(/Subject: \[Assay\] FAILED: Nightly UI/);
    expect(mail.raw).toContain("Content-Type: text/plain");
    expect(mail.raw).toContain("Content-Type: text/html");
    // Quoted-printable wraps long lines with "=" at the end: unwrapped, the link is whole.
    expect(mail.raw.replace(/=\r\n/g, "")).toContain(`${PUBLIC_URL}/test_runs/nightly-1`);

    // Slack said 429 (Retry-After: 2) first: the second attempt comes no sooner.
    const [first, second] = await slack.waitFor(2);
    expect(slack.at[1]! - slack.at[0]!).toBeGreaterThanOrEqual(1900);
    expect(first!.body).toEqual(second!.body);
    const payload = second!.body as {
      text: string;
      blocks: {
        type: string;
        text?: { text: string };
        fields?: { text: string }[];
        elements?: { url?: string }[];
      }[];
    };
    expect(payload.blocks.map((b) => b.type)).toEqual([
      "header",
      "section",
      "context",
      "section",
      "actions",
    ]);
    expect(payload.blocks[1]!.fields!.map((f) => f.text)).toContain("*Failed*\n2");
    // Failures by triage's groups (error type and normalised message), each with its tests.
    const failures = payload.blocks[3]!.text!.text;
    expect(failures).toMatch(/^\*Top failures\*\n• /);
    expect(failures).toContain(
      "• TypeError: card is undefined (new)\n\u2003\u2003◦ Cart checkout charges the card",
    );
    expect(failures).toContain("\u2003\u2003◦ Cart applies a discount");
    expect(payload.blocks[4]!.elements![0]!.url).toBe(`${PUBLIC_URL}/test_runs/nightly-1`);
    expect(payload.text).toContain(`${PUBLIC_URL}/test_runs/nightly-1`);

    const outcome = (name: string) => async () => {
      const rule = (await rules()).find((r) => r.name === name);
      return rule?.deliveries[0]?.state === "sent" ? rule.deliveries[0] : undefined;
    };
    expect(await until("Teams' outcome", outcome("Everything to Teams"))).toMatchObject({
      runKey: "nightly-1",
      attempts: 1,
      message: "HTTP 200",
    });
    expect(await until("Slack's outcome", outcome("UI main failures"))).toMatchObject({
      runKey: "nightly-1",
      attempts: 2,
    });

    // An upload into a run already sent sends nothing more (delivered once per run and rule).
    expect((await upload(admin, [PASSING()], fields)).statusCode).toBeLessThan(300);
    await new Promise((resolve) => setTimeout(resolve, 4000));
    expect(teams.received).toHaveLength(1);
    expect(smtp.mails).toHaveLength(1);
    expect(slack.received).toHaveLength(2);
  }, 120_000);

  it("matches rules by the run's fields and says why a run was not sent", async () => {
    const fields = {
      family: "frontend",
      branch: "release-2",
      run_key: "release-1",
      test_run_name: "Release UI",
    };
    expect((await upload(admin, [FAILING()], fields)).statusCode).toBe(201);
    await teams.waitFor(2);
    // The Slack rule is for main only: no delivery row for this run at all.
    const slackRule = (await rules()).find((r) => r.channel === "slack")!;
    expect(slackRule.deliveries.map((d) => d.runKey)).not.toContain("release-1");
    expect(slackRule.deliveries[0]).toMatchObject({
      runKey: "nightly-1",
      state: "sent",
      attempts: 2,
    });
  }, 60_000);

  it("sends on recovery only after a failed run", async () => {
    await addRule({
      name: "Recovered",
      channel: "webhook",
      when: "recovery",
      filters: { name: "smoke" },
      secret: `${teams.url}/generic`,
    });
    const smoke = (key: string) => ({
      family: "frontend",
      branch: "dev",
      run_key: key,
      test_run_name: `API smoke ${key}`,
    });
    await upload(admin, [PASSING()], smoke("smoke-1"));
    await upload(admin, [FAILING()], smoke("smoke-2"));
    await upload(admin, [PASSING()], smoke("smoke-3"));
    const generic = await until("the recovery webhook", () =>
      teams.received.find((r) => r.path === "/generic"),
    );
    expect(generic.body).toMatchObject({
      event: "run.finished",
      outcome: "recovered",
      run: { key: "smoke-3" },
      url: `${PUBLIC_URL}/test_runs/smoke-3`,
    });
    const recovered = await until("all three outcomes", async () => {
      const rule = (await rules()).find((r) => r.name === "Recovered");
      return rule?.deliveries.every((d) => d.state !== "pending") ? rule : undefined;
    });
    const states = Object.fromEntries(recovered.deliveries.map((d) => [d.runKey, d]));
    expect(states["smoke-1"]).toMatchObject({
      state: "skipped",
      message: "the run before it had no failures",
    });
    expect(states["smoke-2"]).toMatchObject({ state: "skipped" });
    expect(teams.received.filter((r) => r.path === "/generic")).toHaveLength(1);
  }, 60_000);
});
