import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestApp } from "../../../test/build-test-app.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { JiraFake } from "./fakes/jira-fake.js";
import { ANONYMOUS_LOOKUPS_PER_MINUTE } from "./integrations.routes.js";

/**
 * Issue 33: anonymous callers grew jira_tickets with made-up keys and spent Jira's quota. Keys
 * must look like tickets, stale entries are removed, anonymous callers are rate-limited per
 * address and repeated keys come from the cache.
 */

let database: TestDatabase;
let jira: JiraFake;
let anonymous: TestApp;
let signedIn: TestApp;

const details = (app: FastifyInstance, keys: unknown, ip = "203.0.113.7") =>
  app.inject({
    method: "POST",
    url: "/v1/jira/details",
    payload: keys as object,
    remoteAddress: ip,
  });
const rows = async () =>
  Number((await database.db.pool.query("SELECT count(*) AS n FROM jira_tickets")).rows[0].n);
const bulkCalls = () => jira.count("/rest/api/3/issue/bulkfetch");

beforeAll(async () => {
  database = await createTestDatabase();
  jira = new JiraFake({ deployment: "cloud", email: "bot@example.com", token: "jira-token-x" });
  jira.add({ key: "NXL-1", summary: "Login loops", status: "Open", issuetype: "Bug" });
  await jira.start();
  const user = await database.db.kysely
    .insertInto("users")
    .values({ email: "qa@example.com", name: "QA Engineer" })
    .returning("id")
    .executeTakeFirstOrThrow();
  const env = {
    ASSAY_JIRA_URL: jira.url,
    ASSAY_JIRA_EMAIL: "bot@example.com",
    ASSAY_JIRA_TOKEN: "jira-token-x",
  };
  anonymous = await buildTestApp(database.db, { env, resolvePrincipal: async () => undefined });
  signedIn = await buildTestApp(database.db, {
    env,
    resolvePrincipal: async () => ({
      kind: "user",
      id: user.id,
      email: "qa@example.com",
      name: "QA Engineer",
      admin: false,
    }),
  });
});

afterAll(async () => {
  await Promise.all([anonymous?.app.close(), signedIn?.app.close()]);
  await jira?.stop();
  await database?.drop();
});

describe("POST /v1/jira/details bounded", () => {
  it("refuses keys that are no ticket by the catalogue's pattern, asking Jira nothing", async () => {
    const before = bulkCalls();
    const res = await details(signedIn.app, ["NXL-1", "ABC-1", "NXLX-2", "XNXL-3"]);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toContain("ABC-1, NXLX-2, XNXL-3: not a ticket key");
    expect(res.json().error.message).toContain("ticketPattern nxl-\\d+");
    expect(bulkCalls()).toBe(before);
    expect(await rows()).toBe(0);
  });

  it("removes entries past the cache's time, found or not, when it looks up new keys", async () => {
    await database.db.pool.query(
      `INSERT INTO jira_tickets (key, found, fetched_at)
       SELECT 'NXL-' || n, n % 2 = 0, now() - interval '2 hours' FROM generate_series(1000, 1499) n`,
    );
    expect(await rows()).toBe(500);
    const res = await details(signedIn.app, ["NXL-1", "NXL-777"]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { key: "NXL-1", fields: { summary: "Login loops", status: { name: "Open" } } },
    ]);
    const { rows: left } = await database.db.pool.query(
      "SELECT key FROM jira_tickets ORDER BY key",
    );
    expect(left.map((row: { key: string }) => row.key)).toEqual(["NXL-1", "NXL-777"]);
  });

  it("serves repeated keys from the cache and limits anonymous callers per address", async () => {
    const before = bulkCalls();
    for (let i = 0; i < ANONYMOUS_LOOKUPS_PER_MINUTE; i++) {
      const res = await details(anonymous.app, ["NXL-1", "NXL-1", "NXL-424242"]);
      expect(res.statusCode, `call ${i + 1}`).toBe(200);
    }
    // One Jira call for the unknown key; NXL-1 was cached by the test before.
    expect(bulkCalls()).toBe(before + 1);
    const refused = await details(anonymous.app, ["NXL-1"]);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe("too_many_lookups");
    expect(refused.json().error.message).toMatch(/sign in/);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    // Another address, and signed-in callers, are not held back by it.
    expect((await details(anonymous.app, ["NXL-1"], "198.51.100.9")).statusCode).toBe(200);
    for (let i = 0; i < ANONYMOUS_LOOKUPS_PER_MINUTE + 5; i++) {
      expect((await details(signedIn.app, ["NXL-1"])).statusCode).toBe(200);
    }
  });
});
