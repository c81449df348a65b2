import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildTestApp, type TestApp } from "../../../test/build-test-app.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { JiraFake } from "./fakes/jira-fake.js";
import { SpiraFake } from "./fakes/spira-fake.js";
import { JiraClient } from "./jira.client.js";
import { retryDelayMs } from "./tracker-http.js";

/**
 * The issue-tracker and release service against fakes of Jira and Spira over HTTP (real paths,
 * auth headers, paging, errors and 429s): ticket details with their cache, release lists, and
 * the 'not configured' and tracker-down answers.
 */

const JIRA_TOKEN = "jira-api-token-sentinel-91c2";
const SPIRA_KEY = "{5C2E-SPIRA-SENTINEL}";

let database: TestDatabase;
let jira: JiraFake;
let spira: SpiraFake;
let userId: number;
let configured: TestApp;
let signedIn: TestApp;
let bare: FastifyInstance;

const details = (app: FastifyInstance, keys: unknown) =>
  app.inject({ method: "POST", url: "/v1/jira/details", payload: keys as object });

beforeAll(async () => {
  database = await createTestDatabase();
  jira = new JiraFake({ deployment: "cloud", email: "bot@example.com", token: JIRA_TOKEN });
  jira.add(
    { key: "NXL-1", summary: "Login <b>loops</b>", status: "Open", issuetype: "Bug" },
    { key: "NXL-2", summary: "Export fails", status: "Done", issuetype: "Bug" },
  );
  for (let n = 100; n < 350; n++)
    jira.add({ key: `NXL-${n}`, summary: `Defect ${n}`, status: "In Progress", issuetype: "Bug" });
  jira.versions.set("NXL", [
    { name: "7.3.0", released: true, releaseDate: "2026-09-01" },
    { name: "7.4.0", released: false },
  ]);
  await jira.start();
  spira = new SpiraFake();
  spira.users.set("svc-assay", SPIRA_KEY);
  spira.users.set("quinn", "{QUINN-OWN-KEY}");
  spira.releases.set(7, [
    { ReleaseId: 11, Name: "Nora", VersionNumber: "7.3", Active: true },
    { ReleaseId: 12, Name: "Nora", VersionNumber: "7.4", Active: true },
    { ReleaseId: 9, Name: "Nora", VersionNumber: "6.0", Active: false },
  ]);
  await spira.start();
  const user = await database.db.kysely
    .insertInto("users")
    .values({ email: "qa@example.com", name: "QA Engineer" })
    .returning("id")
    .executeTakeFirstOrThrow();
  userId = user.id;
  const env = {
    ASSAY_JIRA_URL: jira.url,
    ASSAY_JIRA_EMAIL: "bot@example.com",
    ASSAY_JIRA_TOKEN: JIRA_TOKEN,
    ASSAY_JIRA_PROJECT: "NXL",
    ASSAY_SPIRA_URL: spira.baseUrl,
    ASSAY_SPIRA_PROJECT_ID: "7",
    ASSAY_SPIRA_USER: "svc-assay",
    ASSAY_SPIRA_API_KEY: SPIRA_KEY,
  };
  configured = await buildTestApp(database.db, { env, resolvePrincipal: async () => undefined });
  signedIn = await buildTestApp(database.db, {
    env,
    resolvePrincipal: async () => ({
      kind: "user",
      id: userId,
      email: "qa@example.com",
      name: "QA Engineer",
      admin: false,
    }),
  });
  bare = (await buildTestApp(database.db, { resolvePrincipal: async () => undefined })).app;
});

afterAll(async () => {
  await Promise.all([configured?.app.close(), signedIn?.app.close(), bare?.close()]);
  await Promise.all([jira?.stop(), spira?.stop()]);
  await database?.drop();
});

beforeEach(async () => {
  await database.db.pool.query("DELETE FROM jira_tickets");
  jira.calls.length = 0;
  spira.calls.length = 0;
  jira.rateLimitNext = 0;
  jira.failNext = 0;
});

describe("POST /v1/jira/details", () => {
  it("answers key, summary and status for known keys, leaves unknown ones out", async () => {
    const res = await details(configured.app, ["NXL-1", "NXL-2", "NXL-999999"]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      // Jira's HTML is data: passed on as the text it is.
      { key: "NXL-1", fields: { summary: "Login <b>loops</b>", status: { name: "Open" } } },
      { key: "NXL-2", fields: { summary: "Export fails", status: { name: "Done" } } },
    ]);
    expect(jira.count("/rest/api/3/issue/bulkfetch")).toBe(1);
  });

  it("costs one round trip per 100 distinct keys, then none while the cache is fresh", async () => {
    const keys = Array.from({ length: 250 }, (_, i) => `NXL-${100 + i}`);
    const first = await details(configured.app, [...keys, ...keys]);
    expect(first.json()).toHaveLength(250);
    expect(jira.count("/rest/api/3/issue/bulkfetch")).toBe(3);
    const again = await details(configured.app, keys);
    expect(again.json()).toHaveLength(250);
    expect(jira.count("/rest/api/3/issue/bulkfetch")).toBe(3);
  });

  it("does not ask Jira again for a key it did not know, until the entry is stale", async () => {
    await details(configured.app, ["NXL-424242"]);
    await details(configured.app, ["NXL-424242"]);
    expect(jira.count("/rest/api/3/issue/bulkfetch")).toBe(1);
    await database.db.pool.query("UPDATE jira_tickets SET fetched_at = now() - interval '2 hours'");
    await details(configured.app, ["NXL-424242"]);
    expect(jira.count("/rest/api/3/issue/bulkfetch")).toBe(2);
  });

  it("waits out a 429's Retry-After and answers", async () => {
    jira.rateLimitNext = 1;
    jira.retryAfter = "0";
    const res = await details(configured.app, ["NXL-1"]);
    expect(res.statusCode).toBe(200);
    expect(jira.calls.filter((c) => c.path.endsWith("bulkfetch"))).toHaveLength(2);
  });

  it("refuses lower-case or malformed keys with a 400 saying the form", async () => {
    const res = await details(configured.app, ["nxl-1"]);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toContain("upper-cased PROJECT-NUMBER");
    expect((await details(configured.app, [])).statusCode).toBe(400);
    expect(jira.calls).toHaveLength(0);
  });

  it("answers 502 naming Jira when it fails, and caches nothing", async () => {
    jira.failNext = 1;
    const res = await details(configured.app, ["NXL-2"]);
    expect(res.statusCode).toBe(502);
    expect(res.json().error.message).toMatch(/^Jira answered 500/);
    const { rows } = await database.db.pool.query("SELECT * FROM jira_tickets");
    expect(rows).toHaveLength(0);
  });

  it("says Jira is not configured (503) when ASSAY_JIRA_URL is unset", async () => {
    const res = await details(bare, ["NXL-1"]);
    expect(res.statusCode).toBe(503);
    expect(res.json().error).toMatchObject({ code: "not_configured" });
    expect(res.json().error.message).toContain("ASSAY_JIRA_URL");
  });

  it("never logs the Jira token", () => {
    expect(JSON.stringify(configured.logs)).not.toContain(JIRA_TOKEN);
  });
});

describe("release lists", () => {
  it("GET /v1/jira/release-versions lists the project's versions", async () => {
    const res = await configured.app.inject({ method: "GET", url: "/v1/jira/release-versions" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { name: "7.3.0", released: true, releaseDate: "2026-09-01" },
      { name: "7.4.0", released: false, releaseDate: null },
    ]);
  });

  it("GET /v1/spira/releases needs a signed-in user", async () => {
    const res = await configured.app.inject({ method: "GET", url: "/v1/spira/releases" });
    expect(res.statusCode).toBe(401);
  });

  it("GET /v1/spira/releases asks with the service account without own credentials", async () => {
    const res = await signedIn.app.inject({ method: "GET", url: "/v1/spira/releases" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { ReleaseId: 11, FullName: "Nora 7.3" },
      { ReleaseId: 12, FullName: "Nora 7.4" },
    ]);
    expect(spira.calls.at(-1)?.username).toBe("svc-assay");
  });

  it("GET /v1/spira/releases uses the user's own profile credentials when set", async () => {
    const put = await signedIn.app.inject({
      method: "PUT",
      url: "/v1/me",
      payload: { spira_user: "quinn", spira_pass: "{QUINN-OWN-KEY}" },
    });
    expect(put.statusCode).toBe(200);
    const res = await signedIn.app.inject({ method: "GET", url: "/v1/spira/releases" });
    expect(res.statusCode).toBe(200);
    expect(spira.calls.at(-1)?.username).toBe("quinn");
    expect(res.body).not.toContain("QUINN-OWN-KEY");
  });

  it("answers 502 with Spira's words when it denies the credentials", async () => {
    spira.users.set("quinn", "{ROTATED}");
    const res = await signedIn.app.inject({ method: "GET", url: "/v1/spira/releases" });
    expect(res.statusCode).toBe(502);
    expect(res.json().error.message).toContain("Access Denied");
    spira.users.set("quinn", "{QUINN-OWN-KEY}");
  });

  it("say not configured without the settings", async () => {
    const res = await bare.inject({ method: "GET", url: "/v1/jira/release-versions" });
    expect(res.statusCode).toBe(503);
    expect(res.json().error.message).toContain("Jira is not configured");
  });
});

describe("GET /v1/integrations", () => {
  it("says which trackers answer and where, and that no sync ran", async () => {
    const res = await configured.app.inject({ method: "GET", url: "/v1/integrations" });
    expect(res.json()).toMatchObject({
      jira: { configured: true, kind: "real", origin: jira.url, requirementsSync: false },
      spira: { configured: true, kind: "real", origin: spira.url },
      sync: { state: "never", lastSuccessAt: null },
    });
    const none = await bare.inject({ method: "GET", url: "/v1/integrations" });
    expect(none.json().jira).toMatchObject({ configured: false, kind: null });
  });
});

describe("Jira client", () => {
  it("pages Cloud's /search/jql by nextPageToken until isLast", async () => {
    const client = new JiraClient({
      baseUrl: jira.url,
      deployment: "cloud",
      email: "bot@example.com",
      token: JIRA_TOKEN,
      project: "NXL",
      timeoutMs: 5000,
    });
    const pages: number[] = [];
    const issues = await client.search("project = NXL", ["summary"], (n) => {
      pages.push(n);
    });
    expect(issues).toHaveLength(252);
    expect(pages).toEqual([100, 200, 252]);
    expect(jira.count("/rest/api/3/search/jql")).toBe(3);
  });

  it("fails with Jira's message on a bad token, without the token in it", async () => {
    const client = new JiraClient({
      baseUrl: jira.url,
      deployment: "cloud",
      email: "bot@example.com",
      token: "wrong",
      project: undefined,
      timeoutMs: 5000,
    });
    await expect(client.issuesByKey(["NXL-1"], ["summary"])).rejects.toThrow(
      /Jira answered 401 .*Check the credentials/,
    );
  });

  it("searches Data Center's /rest/api/2/search with a Bearer PAT, dropping unknown keys", async () => {
    const dc = new JiraFake({ deployment: "datacenter", token: "pat-1" });
    dc.add({ key: "QA-1", summary: "One", status: "Open", issuetype: "Bug" });
    await dc.start();
    try {
      const client = new JiraClient({
        baseUrl: dc.url,
        deployment: "datacenter",
        email: undefined,
        token: "pat-1",
        project: undefined,
        timeoutMs: 5000,
      });
      const issues = await client.issuesByKey(["QA-1", "QA-404"], ["summary", "status"]);
      expect(issues.map((i) => i.key)).toEqual(["QA-1"]);
      expect(dc.count("/rest/api/2/search")).toBe(2);
    } finally {
      await dc.stop();
    }
  });

  it("reads Retry-After in seconds or as a date", () => {
    expect(retryDelayMs("3", 0)).toBe(3000);
    expect(retryDelayMs(new Date(10_000).toUTCString(), 0, 5_000)).toBe(5000);
    expect(retryDelayMs(null, 2)).toBe(4000);
  });
});
