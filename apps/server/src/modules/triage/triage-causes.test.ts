import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FastifyInstance } from "fastify";
import { insertRunningBuild } from "../../../test/running-build.js";
import { buildTagApps, type TagApps } from "../../../test/tag-apps.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { TEST_INGEST_TOKEN, upload } from "../../../test/upload.js";
import { newGroupsOfRun } from "./causes.service.js";
import { nameOf } from "../../db/results-sql.js";

/**
 * Triage by result (issue 34): a page's causes, the results dialogs' group and type filters, a
 * type set from the Failed Summary, new groups for notify, and the gate with CI's tokens; on real
 * PostgreSQL through the real routes.
 */

interface Group {
  isNew: boolean;
  isRegression: boolean;
}

let database: TestDatabase;
let apps: TagApps;
let runKey: string;
let ordersGroup: number;
let timeoutGroup: number;

const failure = (name: string, message: string, frame: string) =>
  `<testcase classname="api.Cart" name="${name}" time="0.1"><failure message="${message}" type="java.lang.AssertionError">java.lang.AssertionError: ${message}\n\tat com.example.api.${frame}(X.java:3)</failure></testcase>`;

function junit(cases: string[]): string {
  return `<?xml version="1.0"?>\n<testsuite name="api.Cart" tests="${cases.length}">\n${cases.join("\n")}\n</testsuite>\n`;
}

async function store(cases: string[], fields: Record<string, string> = {}): Promise<string> {
  const res = await upload(apps.withToken, [{ name: "TEST-api.Cart.xml", content: junit(cases) }], {
    family: "backend",
    executor: "causes",
    branch: "main",
    ...fields,
  });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return (res.json() as { test_run_key: string }).test_run_key;
}

const get = async (url: string, app: FastifyInstance = apps.anonymous) => {
  const res = await app.inject({ method: "GET", url });
  return { status: res.statusCode, body: res.json() as unknown, text: res.body };
};

async function resultIds(key: string): Promise<{ id: number; name: string; test_id: number }[]> {
  const { rows } = await database.db.pool.query<{ id: string; name: string; test_id: string }>(
    `SELECT r.id, ${nameOf("r")} AS name, r.test_id FROM results r JOIN runs ON runs.id = r.run_id
     WHERE runs.test_run_key = $1 ORDER BY r.id`,
    [key],
  );
  return rows.map((row) => ({ id: Number(row.id), name: row.name, test_id: Number(row.test_id) }));
}

beforeAll(async () => {
  database = await createTestDatabase();
  apps = await buildTagApps(database);
  runKey = await store([
    failure("addsItem", "expected 200 but got 500 for /api/cart/1", "CartClient.add"),
    failure("removesItem", "expected 200 but got 500 for /api/cart/2", "CartClient.add"),
    failure("paysCart", "Timed out after 3000ms waiting for payment", "PayClient.wait"),
    '<testcase classname="api.Cart" name="listsCart" time="0.1"/>',
  ]);
  const groups = (await get(`/v1/runs/${runKey}/failure-groups`)).body as {
    id: number;
    count: number;
  }[];
  ordersGroup = groups[0]!.id;
  timeoutGroup = groups[1]!.id;
}, 60_000);
afterAll(async () => {
  await apps.close();
  await database.drop();
});

describe("the run's groups answer and a page's causes", () => {
  it("answers counts per group, not each result", async () => {
    const groups = (await get(`/v1/runs/${runKey}/failure-groups`)).body as object[];
    expect(groups).toHaveLength(2);
    expect(groups[0]).toMatchObject({ count: 2, toInvestigate: 2 });
    expect(groups[0]).not.toHaveProperty("results");
  });

  it("looks up the group and type of the failed results asked, leaving out the others", async () => {
    const ids = await resultIds(runKey);
    const res = await get(
      `/v1/runs/${runKey}/failure-causes?ids=${ids.map((r) => r.id).join(",")}`,
    );
    expect(res.status).toBe(200);
    const byName = new Map(ids.map((r) => [r.id, r.name]));
    const causes = res.body as { resultId: number; groupId: number; type: string }[];
    expect(causes.map((c) => [byName.get(c.resultId), c.groupId, c.type])).toEqual([
      ["addsItem", ordersGroup, "to_investigate"],
      ["removesItem", ordersGroup, "to_investigate"],
      ["paysCart", timeoutGroup, "to_investigate"],
    ]);
  });

  it("refuses ids that are not numbers, and more than 500, in words", async () => {
    const bad = await get(`/v1/runs/${runKey}/failure-causes?ids=1,x`);
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("ids must be result ids separated by commas");
    const many = Array.from({ length: 501 }, (_, i) => i + 1).join(",");
    const tooMany = await get(`/v1/runs/${runKey}/failure-causes?ids=${many}`);
    expect(tooMany.status).toBe(400);
    expect(tooMany.text).toContain("at most 500");
  });
});

describe("the results dialog's cause filters (run view)", () => {
  const shown = async (query: string) => {
    const res = await get(`/v1/api-test-run/${runKey}/view?${query}`);
    expect(res.status, res.text).toBe(200);
    const body = res.body as { shown: number; total: number; rows: unknown[][] };
    return { shown: body.shown, total: body.total, names: body.rows.map((row) => row[3]) };
  };

  it("keeps a group's failures, then a defect type's", async () => {
    expect(await shown(`group=${ordersGroup}`)).toMatchObject({
      shown: 2,
      total: 4,
      names: ["addsItem", "removesItem"],
    });
    expect((await shown("defect=to_investigate")).shown).toBe(3);
    expect((await shown("defect=product_bug")).shown).toBe(0);
    expect((await get(`/v1/api-test-run/${runKey}/view?group=abc`)).status).toBe(400);
    expect((await get(`/v1/api-test-run/${runKey}/view?defect=bug`)).text).toContain(
      "type must be one of",
    );
  });
});

describe("a type from the Failed Summary (the run's failures of some tests)", () => {
  it("records one decision per failure of those tests, refuses unknown fields and tokens", async () => {
    const ids = await resultIds(runKey);
    const tests = ids.filter((r) => r.name !== "paysCart").map((r) => r.test_id);
    const put = (app: FastifyInstance, payload: object, headers = {}) =>
      app.inject({ method: "PUT", url: `/v1/runs/${runKey}/defect`, payload, headers });
    const extra = await put(apps.user, { tests, type: "product_bug", who: "me" });
    expect(extra.statusCode).toBe(400);
    const token = await put(
      apps.withToken,
      { tests, type: "product_bug" },
      { authorization: `Bearer ${TEST_INGEST_TOKEN}` },
    );
    expect(token.statusCode).toBe(403);
    const res = await put(apps.user, { tests, type: "product_bug", bugs: ["cart-9"] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      updated: 2,
      defect: { type: "product_bug", bugs: ["CART-9"] },
    });
    const view = await get(`/v1/api-test-run/${runKey}/view?defect=product_bug`);
    expect((view.body as { shown: number }).shown).toBe(2);
    const none = await put(apps.user, { tests: [999_999], type: "no_defect" });
    expect(none.statusCode).toBe(404);
    expect(none.body).toContain("None of these 1 tests failed");
  });
});

describe("new groups of a run (notify)", () => {
  it("lists the groups first seen in the run, not the known ones", async () => {
    const again = await store([
      failure("addsItem", "expected 200 but got 500 for /api/cart/7", "CartClient.add"),
      failure("checksOut", "Connection refused to stock service", "StockClient.get"),
    ]);
    const { rows } = await database.db.pool.query<{ id: string }>(
      "SELECT id FROM runs WHERE test_run_key = $1",
      [again],
    );
    const fresh = await newGroupsOfRun(
      { db: database.db, settings: { similarity: 0.6 } },
      Number(rows[0]?.id),
    );
    expect(fresh.map((group) => [group.message, group.count])).toEqual([
      ["Connection refused to stock service", 1],
    ]);
  });
});

describe("regression: the job's own runs, by place", () => {
  it("a cause back on one environment is no regression because another environment's runs lack it", async () => {
    const cause = failure("syncs", "disk full on /var/lib/sync", "SyncClient.push");
    const on = (env: string) => ({ executor: "nightly-sync", env });
    await store([cause], on("dev"));
    // Another environment's runs of the same executor and branch: the cause never ran there.
    for (let i = 0; i < 3; i++) await store(['<testcase classname="x" name="other"/>'], on("qa"));
    const again = await store([cause], on("dev"));
    const groups = (await get(`/v1/runs/${again}/failure-groups`)).body as Group[];
    expect(groups[0]).toMatchObject({ isNew: false, isRegression: false });
    // Absent from dev's own last three runs, then back: a regression.
    for (let i = 0; i < 3; i++) await store(['<testcase classname="x" name="syncs"/>'], on("dev"));
    const back = await store([cause], on("dev"));
    expect(((await get(`/v1/runs/${back}/failure-groups`)).body as Group[])[0]).toMatchObject({
      isRegression: true,
    });
  });
});

describe("the gate and CI's tokens", () => {
  it("answers an ingest token and a build's own token; refuses a build's token on another run", async () => {
    const { rows } = await database.db.pool.query<{ id: number }>(
      "INSERT INTO users (email, name) VALUES ('ci@example.com', 'CI') RETURNING id",
    );
    const buildToken = await insertRunningBuild(database, runKey, rows[0]!.id);
    const gate = (key: string, bearer: string) =>
      apps.withToken.inject({
        method: "GET",
        url: `/v1/runs/${key}/gate?max_new=5`,
        headers: { authorization: `Bearer ${bearer}` },
      });
    expect((await gate(runKey, TEST_INGEST_TOKEN)).statusCode).toBe(200);
    const own = await gate(runKey, buildToken);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toMatchObject({ passed: true });
    const other = await store([failure("x", "boom", "X.y")]);
    const refused = await gate(other, buildToken);
    expect(refused.statusCode).toBe(403);
    expect((refused.json() as { error: { message: string } }).error.message).toContain(
      `may only send results to run "${runKey}"`,
    );
    expect(
      (await apps.anonymous.inject({ method: "GET", url: `/v1/runs/${runKey}/gate` })).statusCode,
    ).toBe(401);
  });
});
