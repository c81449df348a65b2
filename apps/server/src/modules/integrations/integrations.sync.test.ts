import type { IntegrationsStatus, TraceabilityMatrix } from "@assay/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestApp } from "../../../test/build-test-app.js";
import { QA_USER } from "../../../test/tag-apps.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { JiraFake } from "./fakes/jira-fake.js";

/**
 * The requirements sync as a pg-boss job against a fake Jira over HTTP: requirements with their
 * epic, type and linked bugs replace the matrix's; a failing Jira keeps the last good data and
 * the reason is shown; a 429 is waited out.
 */

let database: TestDatabase;
let jira: JiraFake;
let built: TestApp;

const status = async (): Promise<IntegrationsStatus> =>
  (await built.app.inject({ method: "GET", url: "/v1/integrations" })).json();
const matrix = async (): Promise<TraceabilityMatrix> =>
  (await built.app.inject({ method: "GET", url: "/v1/traceability-matrix" })).json();

async function syncAndWait(): Promise<IntegrationsStatus> {
  const res = await built.app.inject({ method: "POST", url: "/v1/integrations/sync" });
  expect(res.statusCode).toBe(202);
  for (let i = 0; i < 120; i++) {
    const now = await status();
    if (now.sync.state === "succeeded" || now.sync.state === "failed") return now;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error("the sync did not finish in 30 s");
}

beforeAll(async () => {
  database = await createTestDatabase();
  jira = new JiraFake({ deployment: "cloud", email: "bot@example.com", token: "t0k3n" });
  jira.add(
    { key: "NXL-9", summary: "SSO loops", status: "Open", issuetype: "Bug" },
    { key: "NXL-10", summary: "A task", status: "Open", issuetype: "Task" },
    {
      key: "RMS-1",
      summary: "Sign in with SSO",
      status: "Approved",
      issuetype: "Story",
      epic: "Access",
      links: [
        { type: "Relates", direction: "inward", key: "NXL-9" },
        { type: "Relates", direction: "outward", key: "NXL-10" },
      ],
    },
  );
  for (let n = 2; n <= 130; n++)
    jira.add({
      key: `RMS-${n}`,
      summary: `Requirement ${n}`,
      status: "Approved",
      issuetype: "Story",
    });
  await jira.start();
  built = await buildTestApp(database.db, {
    resolvePrincipal: async () => QA_USER,
    env: {
      ASSAY_JIRA_URL: jira.url,
      ASSAY_JIRA_EMAIL: "bot@example.com",
      ASSAY_JIRA_TOKEN: "t0k3n",
      ASSAY_JIRA_REQUIREMENTS_JQL: "project = RMS ORDER BY key",
    },
  });
});

afterAll(async () => {
  await built?.app.close();
  await jira?.stop();
  await database?.drop();
});

describe("requirements sync from Jira", () => {
  it("replaces the requirements with the JQL's issues, paged, with epic, type and bugs", async () => {
    jira.rateLimitNext = 1;
    jira.retryAfter = "0";
    const done = await syncAndWait();
    expect(done.sync).toMatchObject({
      state: "succeeded",
      progress: "130 requirements",
      error: null,
    });
    expect(done.sync.lastSuccessAt).not.toBeNull();
    expect(jira.count("/rest/api/3/search/jql")).toBe(3); // 429 then 2 pages of 100
    const body = await matrix();
    expect(body.source).toMatchObject({ kind: "jira", fileName: "project = RMS ORDER BY key" });
    expect(body.rows).toHaveLength(130);
    expect(body.rows[0]).toMatchObject({
      rmsDetail: { rms: "RMS-1", summary: "Sign in with SSO", epic: "Access", type: "Story" },
      // Only issues of the bug types count as bugs: the linked Task is left out.
      linkedBugs: [{ key: "NXL-9", fields: { summary: "SSO loops", status: { name: "Open" } } }],
    });
  });

  it("keeps the last good requirements when Jira fails, and says why", async () => {
    const before = await matrix();
    jira.failNext = 1;
    const done = await syncAndWait();
    expect(done.sync.state).toBe("failed");
    expect(done.sync.error).toMatch(/^Jira answered 500/);
    expect(done.sync.lastSuccessAt).not.toBeNull();
    expect(await matrix()).toEqual(before);
  });

  it("refuses a sync without a requirements JQL with a 503 saying what to set", async () => {
    const other = await buildTestApp(database.db, {
      resolvePrincipal: async () => QA_USER,
      startWorkers: false,
    });
    try {
      const res = await other.app.inject({ method: "POST", url: "/v1/integrations/sync" });
      expect(res.statusCode).toBe(503);
      expect(res.json().error.message).toContain("ASSAY_JIRA_REQUIREMENTS_JQL");
    } finally {
      await other.app.close();
    }
  });
});
