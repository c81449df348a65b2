import type { IntegrationsStatus, TraceabilityMatrix } from "@assay/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestApp } from "../../../test/build-test-app.js";
import { QA_USER } from "../../../test/tag-apps.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { SPIRA_REST_ROOT, SpiraFake, type FakeRequirement } from "./fakes/spira-fake.js";

/**
 * The requirements sync from Spira as a pg-boss job against the fake Spira over HTTP, on real
 * PostgreSQL: every requirement of the project read with the service account, 500 rows a call;
 * summary requirements become their children's epic; a 429 is waited out; a failing Spira keeps
 * the last good data and the reason is shown; the schedule is registered.
 */

const KEY = "{6D1F2C3A-0000-4B5C-9D8E-112233445566}";
const PROJECT = 7;

let database: TestDatabase;
let spira: SpiraFake;
let built: TestApp;

const status = async (): Promise<IntegrationsStatus> =>
  (await built.app.inject({ method: "GET", url: "/v1/integrations" })).json();
const matrix = async (): Promise<TraceabilityMatrix> =>
  (await built.app.inject({ method: "GET", url: "/v1/traceability-matrix" })).json();

async function syncAndWait(): Promise<IntegrationsStatus> {
  const res = await built.app.inject({ method: "POST", url: "/v1/integrations/sync" });
  expect(res.statusCode).toBe(202);
  expect(res.json().sync.tracker).toBe("spira");
  for (let i = 0; i < 160; i++) {
    const now = await status();
    if (now.sync.state === "succeeded" || now.sync.state === "failed") return now;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error("the sync did not finish in 40 s");
}

function requirements(): FakeRequirement[] {
  const rows: FakeRequirement[] = [
    { RequirementId: 1, Name: "Access", StatusName: "Approved", RequirementTypeName: "Epic" },
    {
      RequirementId: 2,
      Name: "Sign in with <b>SSO</b>",
      StatusName: "Approved",
      RequirementTypeName: "Feature",
      parentId: 1,
      testCaseIds: [501],
    },
  ];
  // 600 more at the top level: the list takes two calls of at most 500 rows.
  for (let n = 3; n <= 602; n++)
    rows.push({
      RequirementId: n,
      Name: `Requirement ${n}`,
      StatusName: "Planned",
      RequirementTypeName: "Need",
    });
  return rows;
}

beforeAll(async () => {
  database = await createTestDatabase();
  spira = new SpiraFake();
  spira.users.set("svc-assay", KEY);
  spira.requirements.set(PROJECT, requirements());
  await spira.start();
  built = await buildTestApp(database.db, {
    resolvePrincipal: async () => QA_USER,
    env: {
      ASSAY_SPIRA_URL: spira.baseUrl,
      ASSAY_SPIRA_PROJECT_ID: String(PROJECT),
      ASSAY_SPIRA_USER: "svc-assay",
      ASSAY_SPIRA_API_KEY: KEY,
      ASSAY_SPIRA_REQUIREMENTS_SYNC: "true",
      ASSAY_SPIRA_SYNC_CRON: "15 3 * * *",
    },
  });
});

afterAll(async () => {
  await built?.app.close();
  await spira?.stop();
  await database?.drop();
});

describe("requirements sync from Spira", () => {
  it("says Spira is the requirements source before any sync", async () => {
    const now = await status();
    expect(now.spira).toMatchObject({ configured: true, kind: "real", requirementsSync: true });
    expect(now.jira).toMatchObject({ configured: false, requirementsSync: false });
    expect(now.sync).toMatchObject({ tracker: "spira", state: "never", lastSuccessAt: null });
  });

  it("registers the schedule of ASSAY_SPIRA_SYNC_CRON", async () => {
    const { rows } = await database.db.pool.query<{ name: string; cron: string }>(
      "SELECT name, cron FROM pgboss.schedule WHERE name = 'tracker-sync'",
    );
    expect(rows).toEqual([{ name: "tracker-sync", cron: "15 3 * * *" }]);
  });

  it("replaces the requirements with the project's, paged, epics from summary requirements", async () => {
    spira.rateLimitNext = 1;
    const before = spira.calls.length;
    const done = await syncAndWait();
    expect(done.sync).toMatchObject({
      tracker: "spira",
      state: "succeeded",
      progress: "601 requirements",
      error: null,
    });
    expect(done.sync.lastSuccessAt).not.toBeNull();
    const calls = spira.calls.slice(before);
    // The 429, then rows 1-500 and 501-602, each with the service account's user name.
    expect(calls.map((call) => call.path)).toEqual(
      Array(3).fill(`${SPIRA_REST_ROOT}projects/${PROJECT}/requirements`),
    );
    expect(calls.every((call) => call.username === "svc-assay")).toBe(true);
    const body = await matrix();
    expect(body.source).toMatchObject({ kind: "spira", fileName: `Spira project ${PROJECT}` });
    expect(body.rows).toHaveLength(601);
    expect(body.rows.some((row) => row.rmsDetail.rms === "RQ:1")).toBe(false);
    expect(body.rows[0]).toMatchObject({
      // Spira's words are data: the HTML in a name is kept as text, never rendered.
      rmsDetail: { rms: "RQ:2", summary: "Sign in with <b>SSO</b>", epic: "Access" },
      linkedBugs: [],
    });
    expect(body.rows[1]?.rmsDetail).toMatchObject({ rms: "RQ:3", epic: "", type: "Need" });
  });

  it("keeps notes of known requirements across syncs", async () => {
    const row = (await matrix()).rows[0]!;
    const put = await built.app.inject({
      method: "PUT",
      url: `/v1/traceability/rms/${row.rmsDetail.id}`,
      payload: { note: "Covered by the SSO suite", noTestNeeded: 0 },
    });
    expect(put.statusCode).toBe(200);
    spira.requirements.get(PROJECT)![1]!.Name = "Sign in with SSO (renamed)";
    expect((await syncAndWait()).sync.state).toBe("succeeded");
    expect((await matrix()).rows[0]?.rmsDetail).toMatchObject({
      rms: "RQ:2",
      summary: "Sign in with SSO (renamed)",
      note: "Covered by the SSO suite",
    });
  });

  it("keeps the last good requirements when Spira fails, and says why", async () => {
    const before = await matrix();
    const lastSuccess = (await status()).sync.lastSuccessAt;
    spira.users.set("svc-assay", "{REVOKED}");
    try {
      const done = await syncAndWait();
      expect(done.sync.state).toBe("failed");
      expect(done.sync.error).toMatch(/^Spira answered 404 to GET .*requirements: Access Denied/);
      expect(done.sync.error).not.toContain(KEY);
      expect(done.sync.error).toMatch(/[^.]\.$/); // Spira's own full stop is not doubled

      expect(done.sync.lastSuccessAt).toBe(lastSuccess);
      expect(await matrix()).toEqual(before);
    } finally {
      spira.users.set("svc-assay", KEY);
    }
  });

  it("keeps the last good requirements when the project has none left", async () => {
    const before = await matrix();
    const all = spira.requirements.get(PROJECT)!;
    spira.requirements.set(PROJECT, []);
    try {
      const done = await syncAndWait();
      expect(done.sync).toMatchObject({ state: "failed", tracker: "spira" });
      expect(done.sync.error).toContain(`Spira project ${PROJECT} has no requirements`);
      expect(await matrix()).toEqual(before);
    } finally {
      spira.requirements.set(PROJECT, all);
    }
  });
});
