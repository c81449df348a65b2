import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SpiraFake } from "./fakes/spira-fake.js";
import { SpiraClient } from "./spira.client.js";
import { spiraRequirementRows } from "./spira-requirements.js";

/**
 * Spira's requirements resources as the fake speaks them (paths, headers, 1-based paging, errors
 * as 404 text, 405, XML unless JSON is asked for) and the client and mapping the sync uses.
 */

const KEY = "{11111111-2222-3333-4444-555555555555}";
let fake: SpiraFake;
let client: SpiraClient;

const call = (path: string, init: RequestInit = {}, accept = "application/json") =>
  fetch(`${fake.baseUrl}${path}`, {
    ...init,
    headers: {
      username: "svc",
      "api-key": KEY,
      accept,
      "content-type": "application/json",
      ...init.headers,
    },
  });

beforeAll(async () => {
  fake = new SpiraFake();
  fake.users.set("svc", KEY);
  fake.requirements.set(3, [
    { RequirementId: 10, Name: "Reports", StatusName: "Approved", RequirementTypeName: "Epic" },
    {
      RequirementId: 11,
      Name: "Export PDF",
      StatusName: "Approved",
      RequirementTypeName: "Feature",
      parentId: 10,
      testCaseIds: [900, 901],
    },
    {
      RequirementId: 12,
      Name: "Export CSV",
      StatusName: "Planned",
      RequirementTypeName: "Feature",
      parentId: 10,
    },
    { RequirementId: 13, Name: "Audit trail", StatusName: "Planned", RequirementTypeName: "Need" },
  ]);
  await fake.start();
  client = new SpiraClient(
    {
      baseUrl: fake.baseUrl,
      projectId: 3,
      serviceUser: "svc",
      serviceApiKey: KEY,
      timeoutMs: 5000,
    },
    { sleep: async () => undefined },
  );
});
afterAll(async () => {
  await fake.stop();
});

describe("the fake Spira's requirements resources", () => {
  it("pages the list by 1-based starting_row, with IndentLevel and Summary", async () => {
    const res = await call("projects/3/requirements?starting_row=2&number_of_rows=2");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject([
      { RequirementId: 11, IndentLevel: "AAAAAA", Summary: false, CoverageCountTotal: 2 },
      { RequirementId: 12, IndentLevel: "AAAAAB", Summary: false },
    ]);
    const first = (await (await call("projects/3/requirements")).json()) as unknown[];
    expect(first[0]).toMatchObject({ RequirementId: 10, IndentLevel: "AAA", Summary: true });
    const zero = await call("projects/3/requirements?starting_row=0&number_of_rows=2");
    expect(zero.status).toBe(404);
    expect(await zero.text()).toContain("starting_row");
  });

  it("searches with RemoteFilters (AND-ed) by POST, and refuses other verbs with 405", async () => {
    const res = await call("projects/3/requirements/search?starting_row=1&number_of_rows=50", {
      method: "POST",
      body: JSON.stringify([
        { PropertyName: "StatusName", StringValue: "plan" },
        { PropertyName: "RequirementTypeName", StringValue: "Feature" },
      ]),
    });
    expect(((await res.json()) as { RequirementId: number }[]).map((r) => r.RequirementId)).toEqual(
      [12],
    );
    expect((await call("projects/3/requirements/search")).status).toBe(405);
    expect((await call("projects/3/requirements", { method: "POST", body: "[]" })).status).toBe(
      405,
    );
  });

  it("answers one requirement and its test-case coverage; unknown ones are 404 with text", async () => {
    expect(await (await call("projects/3/requirements/11")).json()).toMatchObject({
      RequirementId: 11,
      Name: "Export PDF",
    });
    expect(await (await call("projects/3/requirements/11/test-cases")).json()).toEqual([
      { RequirementId: 11, TestCaseId: 900 },
      { RequirementId: 11, TestCaseId: 901 },
    ]);
    const missing = await call("projects/3/requirements/99");
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("Unable to locate requested artifact");
    expect((await call("projects/4/requirements")).status).toBe(404);
  });

  it("answers XML unless JSON is asked for, and 404 Access Denied to a wrong key", async () => {
    const xml = await call("projects/3/requirements", {}, "*/*");
    expect(xml.headers.get("content-type")).toBe("application/xml");
    const denied = await call("projects/3/requirements", { headers: { "api-key": "{WRONG}" } });
    expect(denied.status).toBe(404);
    expect(await denied.text()).toMatch(/^Access Denied/);
  });
});

describe("the sync's reading of Spira requirements", () => {
  it("reads every row with progress, and maps leaves to rows with their parent as epic", async () => {
    const heard: number[] = [];
    fake.rateLimitNext = 1;
    const records = await client.requirements(client.serviceCredentials!, async (n) => {
      heard.push(n);
    });
    expect(heard).toEqual([4]);
    expect(spiraRequirementRows(records)).toEqual([
      { rms: "RQ:11", summary: "Export PDF", epic: "Reports", type: "Feature", bugs: [] },
      { rms: "RQ:12", summary: "Export CSV", epic: "Reports", type: "Feature", bugs: [] },
      { rms: "RQ:13", summary: "Audit trail", epic: "", type: "Need", bugs: [] },
    ]);
  });

  it("fails with Spira's own words on a server error", async () => {
    fake.failNext = 1;
    await expect(client.requirements(client.serviceCredentials!)).rejects.toThrow(
      /^Spira answered 500 to GET .*requirements: An internal error occurred/,
    );
  });
});
