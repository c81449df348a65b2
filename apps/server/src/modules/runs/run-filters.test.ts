import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestApp } from "../../../test/build-test-app.js";
import { insertRun } from "../../../test/factories.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";

/*
 * Issue 32 item 15: the run lists filter on the server by platform, region, site, branch,
 * status (has failures), date range and a search over name and run key; bad filters are a 400
 * in words.
 */

let database: TestDatabase;
let testApp: TestApp;

beforeAll(async () => {
  database = await createTestDatabase();
  testApp = await buildTestApp(database.db);
  const db = database.db;
  const ui = (key: string, fields: Parameters<typeof insertRun>[1]) =>
    insertRun(db, {
      family: "frontend",
      test_run_key: key,
      test_run_name: `Run ${key}`,
      ...fields,
    });
  await ui("legacy-us", {
    nora_site: "dev.legacy.example.com",
    branch: "master",
    created_at: new Date("2026-03-01T10:00:00Z"),
    failed: 2,
  });
  await ui("nextgen-us", {
    nora_site: "dev1.nextgen.example.com",
    branch: "feature/login",
    is_next_gen: true,
    created_at: new Date("2026-03-15T10:00:00Z"),
  });
  await ui("nextgen-cn", {
    nora_site: "cn.nextgen.example.com",
    branch: "master",
    is_next_gen: true,
    is_china_region: true,
    created_at: new Date("2026-04-02T23:59:00Z"),
    test_run_name: "Checkout 100% smoke",
    failed: 1,
  });
  await insertRun(db, {
    family: "backend",
    test_run_key: "api-dev1",
    env: "dev1",
    branch: "master",
    created_at: new Date("2026-03-02T10:00:00Z"),
  });
  await insertRun(db, {
    family: "backend",
    test_run_key: "api-stage",
    env: "stage",
    branch: "release/7",
    created_at: new Date("2026-03-03T10:00:00Z"),
    failed: 3,
  });
});
afterAll(async () => {
  await testApp.app.close();
  await database.drop();
});

const keys = async (url: string) => {
  const res = await testApp.app.inject({ method: "GET", url });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as { total: number; items: { test_run_key: string }[] };
  expect(body.total).toBe(body.items.length);
  return body.items.map((run) => run.test_run_key);
};

describe("run list filters", () => {
  it("filters UI runs by platform, region, site and branch", async () => {
    expect(await keys("/v1/test-runs")).toEqual(["nextgen-cn", "nextgen-us", "legacy-us"]);
    expect(await keys("/v1/test-runs?platform=nextGen")).toEqual(["nextgen-cn", "nextgen-us"]);
    expect(await keys("/v1/test-runs?platform=legacy")).toEqual(["legacy-us"]);
    expect(await keys("/v1/test-runs?region=CHINA")).toEqual(["nextgen-cn"]);
    expect(await keys("/v1/test-runs?site=dev1.nextgen.example.com")).toEqual(["nextgen-us"]);
    expect(await keys("/v1/test-runs?branch=master")).toEqual(["nextgen-cn", "legacy-us"]);
    expect(await keys("/v1/test-runs?platform=nextGen&region=US")).toEqual(["nextgen-us"]);
  });

  it("filters by status, date range (whole UTC days) and a search over name and key", async () => {
    expect(await keys("/v1/test-runs?status=failed")).toEqual(["nextgen-cn", "legacy-us"]);
    expect(await keys("/v1/test-runs?status=passed")).toEqual(["nextgen-us"]);
    expect(await keys("/v1/test-runs?from=2026-03-15&to=2026-04-02")).toEqual([
      "nextgen-cn",
      "nextgen-us",
    ]);
    expect(await keys("/v1/test-runs?to=2026-03-14")).toEqual(["legacy-us"]);
    expect(await keys("/v1/test-runs?q=CHECKOUT")).toEqual(["nextgen-cn"]);
    expect(await keys("/v1/test-runs?q=legacy-u")).toEqual(["legacy-us"]);
    // % and _ are searched as written, not as wildcards.
    expect(await keys("/v1/test-runs?q=100%25")).toEqual(["nextgen-cn"]);
    expect(await keys("/v1/test-runs?q=_")).toEqual([]);
  });

  it("filters API runs by env (site), branch and status", async () => {
    expect(await keys("/v1/api-test-runs?site=stage")).toEqual(["api-stage"]);
    expect(await keys("/v1/api-test-runs?branch=master")).toEqual(["api-dev1"]);
    expect(await keys("/v1/api-test-runs?status=failed&q=api")).toEqual(["api-stage"]);
  });

  it("answers a 400 in words for a bad filter", async () => {
    const cases: [string, RegExp][] = [
      ["platform=mobile", /platform is legacy or nextGen/],
      ["from=yesterday", /from is a day written YYYY-MM-DD/],
      ["from=2026-04-01&to=2026-03-01", /ends \(2026-03-01\) before it starts \(2026-04-01\)/],
      ["q=", /cannot be empty/],
    ];
    for (const [query, message] of cases) {
      const res = await testApp.app.inject({ method: "GET", url: `/v1/test-runs?${query}` });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.message).toMatch(message);
    }
  });
});
