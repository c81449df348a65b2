import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FastifyInstance } from "fastify";
import { insertResult, insertRun, insertTest } from "../../../test/factories.js";
import { buildTagApps, type TagApps } from "../../../test/tag-apps.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { TEST_INGEST_TOKEN, upload } from "../../../test/upload.js";
import { backfillRuns } from "./fingerprints.service.js";
import { nameOf } from "../../db/results-sql.js";

/**
 * Triage end to end on real PostgreSQL: JUnit reports (as Maven Surefire writes them) uploaded
 * through the real ingest route, then the triage routes read and decide.
 */

let database: TestDatabase;
let apps: TagApps;

beforeAll(async () => {
  database = await createTestDatabase();
  apps = await buildTagApps(database);
});
afterAll(async () => {
  await apps.close();
  await database.drop();
});

interface Case {
  name: string;
  message?: string;
  stack?: string;
  type?: string;
}

const esc = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function junit(cases: Case[]): string {
  const body = cases
    .map((c) =>
      c.message === undefined
        ? `<testcase classname="api.Orders" name="${c.name}" time="0.1"/>`
        : `<testcase classname="api.Orders" name="${c.name}" time="0.1"><failure message="${esc(c.message)}" type="${c.type ?? "java.lang.AssertionError"}">${esc(c.stack ?? "")}</failure></testcase>`,
    )
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="api.Orders" tests="${cases.length}">\n${body}\n</testsuite>\n`;
}

const ordersFailure = (n: number, line = 40): Omit<Case, "name"> => ({
  message: `expected 200 but got 500 for /api/orders/${n}`,
  stack: `java.lang.AssertionError: expected 200 but got 500 for /api/orders/${n}\n\tat org.junit.Assert.fail(Assert.java:89)\n\tat com.example.api.OrderClient.fetch(OrderClient.java:${line})\n\tat com.example.api.OrdersTest.run(OrdersTest.java:12)`,
});

async function uploadRun(cases: Case[], fields: Record<string, string> = {}): Promise<string> {
  const res = await upload(
    apps.withToken,
    [{ name: "TEST-api.Orders.xml", content: junit(cases) }],
    {
      family: "backend",
      executor: "nightly",
      branch: "main",
      ...fields,
    },
  );
  expect(res.statusCode, res.body).toBeLessThan(300);
  return (res.json() as { test_run_key: string }).test_run_key;
}

const get = async (url: string, app: FastifyInstance = apps.anonymous) => {
  const res = await app.inject({ method: "GET", url });
  return { status: res.statusCode, body: res.json() as Record<string, unknown> & unknown[] };
};

interface Group {
  id: number;
  count: number;
  toInvestigate: number;
  message: string;
  tests: number[];
  isNew: boolean;
  isRegression: boolean;
  firstSeen: { runKey: string | null };
  defect: { type: string; auto: boolean; bugs: string[]; evidence: Record<string, unknown> | null };
}

const groupsOf = async (key: string) =>
  (await get(`/v1/runs/${key}/failure-groups`)).body as unknown as Group[];

/** The first of a group's results in a run (the groups answer has counts, not results). */
async function firstResultOf(runKey: string, groupId: number | undefined): Promise<number> {
  const { rows } = await database.db.pool.query<{ id: string }>(
    `SELECT rf.result_id AS id FROM result_fingerprints rf
     JOIN triage_runs t ON t.run_id = rf.run_id
     WHERE t.run_key = $1 AND rf.group_id = $2 ORDER BY rf.result_id LIMIT 1`,
    [runKey, groupId],
  );
  return Number(rows[0]?.id);
}

let runA: string;
let runB: string;

describe("failure groups of a run", () => {
  it("groups three tests failing through one helper as one cause, a different error as another", async () => {
    runA = await uploadRun([
      { name: "listsOrders", ...ordersFailure(11) },
      { name: "showsOrder", ...ordersFailure(12) },
      { name: "cancelsOrder", ...ordersFailure(13) },
      {
        name: "connects",
        message: "Connection refused: 10.1.2.3:5432",
        type: "java.net.ConnectException",
        stack:
          "java.net.ConnectException: Connection refused: 10.1.2.3:5432\n\tat com.example.db.Pool.open(Pool.java:7)",
      },
      { name: "passes" },
    ]);
    const groups = await groupsOf(runA);
    expect(groups.map((g) => g.count)).toEqual([3, 1]);
    expect(groups[0]?.message).toBe("expected <n> but got <n> for /api/orders/<n>");
    expect(groups[0]?.tests).toHaveLength(3);
    expect(groups.every((g) => g.isNew && !g.isRegression)).toBe(true);
    expect(groups[0]?.firstSeen.runKey).toBe(runA);
    expect(groups[0]?.defect).toMatchObject({ type: "to_investigate", auto: false });
  });

  it("answers 404 in words for an unknown run", async () => {
    const res = await get("/v1/runs/nope/failure-groups");
    expect(res.status).toBe(404);
    expect(JSON.stringify(res.body)).toContain("No run with key nope");
  });
});

describe("defect decisions", () => {
  it("a person sets a group's type in a run for all its results, with who and history", async () => {
    const [orders] = await groupsOf(runA);
    expect(orders?.toInvestigate).toBe(3);
    const res = await apps.user.inject({
      method: "PUT",
      url: `/v1/runs/${runA}/failure-groups/${orders?.id}/defect`,
      payload: { type: "product_bug", comment: "orders API 500s", bugs: ["nxl-77"] },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      updated: 3,
      defect: { type: "product_bug", auto: false, bugs: ["NXL-77"], decidedBy: "qa@example.com" },
    });
    const [after] = await groupsOf(runA);
    expect(after?.defect.type).toBe("product_bug");
    expect(after?.toInvestigate).toBe(0);
  });

  it("refuses a bad type with 400 in words, a signed-out caller with 401, and changes nothing", async () => {
    const [orders] = await groupsOf(runA);
    const id = await firstResultOf(runA, orders?.id);
    const before = await database.db.pool.query("SELECT count(*) FROM defect_decisions");
    const bad = await apps.user.inject({
      method: "PUT",
      url: `/v1/results/${id}/defect`,
      payload: { type: "feature" },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain("type must be one of");
    const anonymous = await apps.anonymous.inject({
      method: "PUT",
      url: `/v1/results/${id}/defect`,
      payload: { type: "no_defect" },
    });
    expect(anonymous.statusCode).toBe(401);
    const after = await database.db.pool.query("SELECT count(*) FROM defect_decisions");
    expect(after.rows).toEqual(before.rows);
  });

  it("answers 404 for a result that did not fail", async () => {
    const { rows } = await database.db.pool.query<{ id: string }>(
      "SELECT id FROM results WHERE status = 'passed' LIMIT 1",
    );
    const res = await apps.user.inject({
      method: "PUT",
      url: `/v1/results/${rows[0]?.id}/defect`,
      payload: { type: "no_defect" },
    });
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain("not a failed result");
  });
});

describe("analysis from past decisions", () => {
  it("a known failure takes the person's type and bugs, marked auto with evidence; a new one stays to investigate", async () => {
    runB = await uploadRun([
      { name: "listsOrders", ...ordersFailure(99, 41) },
      {
        name: "shipsOrder",
        message: "Timed out after 30000ms waiting for #ship-button",
        type: "org.openqa.selenium.TimeoutException",
      },
    ]);
    const groups = await groupsOf(runB);
    const orders = groups.find((g) => g.message.includes("/api/orders"));
    const ship = groups.find((g) => g.message.includes("ship-button"));
    expect(orders?.isNew).toBe(false);
    expect(orders?.firstSeen.runKey).toBe(runA);
    expect(orders?.defect).toMatchObject({ type: "product_bug", auto: true, bugs: ["NXL-77"] });
    expect(orders?.defect.evidence).toMatchObject({
      runKey: runA,
      decidedBy: "qa@example.com",
      similarity: 1,
      sameTest: true,
    });
    expect(ship).toMatchObject({ isNew: true, defect: { type: "to_investigate", auto: false } });
  });

  it("a near match (similar message, another function) takes it too, with its similarity", async () => {
    const key = await uploadRun([
      {
        name: "refundsOrder",
        message: "expected 200 but got 500 for /api/orders/5 refund",
        stack:
          "java.lang.AssertionError: x\n\tat com.example.api.RefundClient.post(RefundClient.java:9)",
      },
    ]);
    const [group] = await groupsOf(key);
    expect(group?.isNew).toBe(true);
    expect(group?.defect.auto).toBe(true);
    expect(group?.defect.type).toBe("product_bug");
    const similarity = group?.defect.evidence?.similarity as number;
    expect(similarity).toBeGreaterThanOrEqual(0.6);
    expect(similarity).toBeLessThan(1);
    expect(group?.defect.evidence?.sameTest).toBe(false);
  });

  it("never overwrites a person's decision when the run is stored again", async () => {
    const [orders] = await groupsOf(runB);
    const id = await firstResultOf(runB, orders?.id);
    const set = await apps.user.inject({
      method: "PUT",
      url: `/v1/results/${id}/defect`,
      payload: { type: "system_issue", comment: "staging down" },
    });
    expect(set.statusCode).toBe(200);
    await uploadRun([{ name: "extra" }], { run_key: runB });
    const after = (await groupsOf(runB)).find((g) => g.id === orders?.id);
    expect(after?.defect).toMatchObject({ type: "system_issue", auto: false });
    const history = await database.db.pool.query(
      "SELECT type, auto FROM defect_decisions WHERE result_id = $1 ORDER BY id",
      [id],
    );
    expect(history.rows).toEqual([
      { type: "product_bug", auto: true },
      { type: "system_issue", auto: false },
    ]);
  });
});

describe("regression", () => {
  it("a cause absent from the job's last 3 runs and back now is a regression", async () => {
    const fields = { executor: "regress-job" };
    await uploadRun(
      [{ name: "connects", message: "disk full on /var/lib/x", type: "java.io.IOException" }],
      fields,
    );
    for (let i = 0; i < 3; i++) await uploadRun([{ name: "connects" }], fields);
    const back = await uploadRun(
      [{ name: "connects", message: "disk full on /var/lib/x", type: "java.io.IOException" }],
      fields,
    );
    const [group] = await groupsOf(back);
    expect(group).toMatchObject({ isNew: false, isRegression: true });
    const again = await uploadRun(
      [{ name: "connects", message: "disk full on /var/lib/x", type: "java.io.IOException" }],
      fields,
    );
    expect((await groupsOf(again))[0]?.isRegression).toBe(false);
  });
});

describe("failure groups over a period and one group", () => {
  it("ranks groups by occurrences, filters by family and branch, and shows one group's tests and runs", async () => {
    const list = (await get("/v1/failure-groups?family=backend&branch=main")).body as unknown as {
      groups: {
        id: number;
        count: number;
        toInvestigate: number;
        message: string;
        trend: { count: number }[];
      }[];
    };
    const counts = list.groups.map((g) => g.count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    const orders = list.groups.find(
      (g) => g.message === "expected <n> but got <n> for /api/orders/<n>",
    );
    expect(orders?.count).toBe(4);
    // Run A's three decided by a person, run B's one taken automatically: none to investigate.
    expect(orders?.toInvestigate).toBe(0);
    expect(orders?.trend).toHaveLength(30);
    expect(orders?.trend.at(-1)?.count).toBe(4);
    const other = (await get("/v1/failure-groups?branch=release")).body as unknown as {
      groups: unknown[];
    };
    expect(other.groups).toEqual([]);
    const one = (await get(`/v1/failure-groups/${orders?.id}`)).body as unknown as {
      tests: unknown[];
      runs: { runKey: string }[];
      sampleMessage: string;
      sampleStack: string;
      firstSeen: { runKey: string };
    };
    expect(one.tests).toHaveLength(3);
    // The sample is the first occurrence (run A's), read from its result.
    expect(one.sampleMessage).toMatch(/^expected 200 but got 500 for \/api\/orders\/1[123]$/);
    expect(one.runs.map((r) => r.runKey).sort()).toEqual([runA, runB].sort());
    expect(one.sampleStack).toContain("OrderClient.fetch");
    expect(one.firstSeen.runKey).toBe(runA);
    expect((await get("/v1/failure-groups/999999")).status).toBe(404);
    expect((await get("/v1/failure-groups?since=yesterday")).status).toBe(400);

    // Its first result no longer stored (retention): the sample is the newest occurrence, run B's.
    const first = await database.db.pool.query<{ first_result_id: string }>(
      "UPDATE failure_groups SET first_result_id = -1 WHERE id = $1 RETURNING (SELECT first_result_id FROM failure_groups WHERE id = $1)",
      [orders?.id],
    );
    try {
      const later = (await get(`/v1/failure-groups/${orders?.id}`)).body as unknown as {
        sampleMessage: string;
      };
      expect(later.sampleMessage).toBe("expected 200 but got 500 for /api/orders/99");
    } finally {
      await database.db.pool.query("UPDATE failure_groups SET first_result_id = $2 WHERE id = $1", [
        orders?.id,
        first.rows[0]?.first_result_id,
      ]);
    }
  });

  it("sets the type of all of a group from its page", async () => {
    const list = (await get("/v1/failure-groups")).body as unknown as {
      groups: { id: number; message: string }[];
    };
    const ship = list.groups.find((g) => g.message.includes("ship-button"));
    const res = await apps.user.inject({
      method: "PUT",
      url: `/v1/failure-groups/${ship?.id}/defect`,
      payload: { type: "automation_bug", comment: "", bugs: [] },
    });
    expect(res.statusCode).toBe(200);
    expect((await groupsOf(runB)).find((g) => g.id === ship?.id)?.defect.type).toBe(
      "automation_bug",
    );
  });
});

describe("quality gate", () => {
  it("fails on new failures over the limit, with reasons; an ingest token may ask", async () => {
    const key = await uploadRun([
      { name: "newOne", message: "brand new cause 1", type: "java.lang.IllegalStateException" },
      { name: "listsOrders", ...ordersFailure(5) },
    ]);
    const res = await apps.withToken.inject({
      method: "GET",
      url: `/v1/runs/${key}/gate?max_new=0&max_failed=5`,
      headers: { authorization: `Bearer ${TEST_INGEST_TOKEN}` },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json() as {
      passed: boolean;
      reasons: string[];
      counts: Record<string, number>;
    };
    expect(body.passed).toBe(false);
    expect(body.counts).toEqual({ failed: 2, newFailures: 1, toInvestigate: 1 });
    expect(body.reasons).toEqual([
      "FAILED: 1 new failures (first seen in this run), at most 0 allowed",
      "ok: 2 failed tests, at most 5 allowed",
    ]);
    const lenient = (await get(`/v1/runs/${key}/gate?max_new=1&max_to_investigate=1`, apps.user))
      .body;
    expect(lenient).toMatchObject({ passed: true });
    expect((await get(`/v1/runs/${key}/gate?max_new=-1`, apps.user)).status).toBe(400);
    expect((await get(`/v1/runs/missing/gate`, apps.user)).status).toBe(404);
  });
});

describe("backfill", () => {
  it("fingerprints runs stored before triage, once", async () => {
    const run = await insertRun(database.db, { family: "frontend" });
    const test = await insertTest(database.db);
    await insertResult(database.db, run, test, {
      status: "failed",
      error_message: "Error: cart total 3 != 4\n    at Cart.total (/home/ci/app/src/cart.ts:3:1)",
    });
    expect(await backfillRuns(database.db, { similarity: 0.6 })).toBeGreaterThanOrEqual(1);
    const groups = await groupsOf(run.test_run_key);
    expect(groups).toHaveLength(1);
    expect(groups[0]?.message).toBe("cart total <n> != <n>");
    expect(await backfillRuns(database.db, { similarity: 0.6 })).toBe(0);
  });
});

describe("the result's answers carry its defect", () => {
  it("test detail: the decision of a failure, null for a pass", async () => {
    const { rows } = await database.db.pool.query<{
      test_run_test_id: string;
      status: string;
      name: string;
    }>(
      `SELECT r.test_run_test_id, r.status, ${nameOf("r")} AS name FROM results r JOIN runs ON runs.id = r.run_id
       WHERE runs.test_run_key = $1 ORDER BY r.status`,
      [runA],
    );
    const failed = rows.find((row) => row.status === "failed" && row.name === "listsOrders");
    const passed = rows.find((row) => row.status === "passed");
    const detail = await get(
      `/v1/api-test-detail/${runA}/${encodeURIComponent(failed?.test_run_test_id ?? "")}`,
    );
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ defect: { type: "product_bug", bugs: ["NXL-77"] } });
    const pass = await get(
      `/v1/api-test-detail/${runA}/${encodeURIComponent(passed?.test_run_test_id ?? "")}`,
    );
    expect(pass.body).toMatchObject({ defect: null });
  });
});

describe("past decisions follow renamed tests", () => {
  const gateway = {
    message: "gateway refused the card token",
    type: "com.example.GatewayException",
    stack:
      "com.example.GatewayException: refused\n\tat com.example.pay.Gateway.charge(Gateway.java:7)",
  };
  const resultOf = async (runKey: string, name: string) => {
    const { rows } = await database.db.pool.query<{ id: string; test_id: string }>(
      `SELECT r.id, r.test_id FROM results r JOIN runs ON runs.id = r.run_id
       WHERE runs.test_run_key = $1 AND ${nameOf("r")} = $2`,
      [runKey, name],
    );
    return { id: Number(rows[0]?.id), testId: Number(rows[0]?.test_id) };
  };
  const decide = async (resultId: number, payload: Record<string, unknown>) => {
    const res = await apps.user.inject({
      method: "PUT",
      url: `/v1/results/${resultId}/defect`,
      payload,
    });
    expect(res.statusCode).toBe(200);
  };

  it("a renamed test's failure takes the decision made on its old name (same test)", async () => {
    // Two tests fail alike; the group's newest decision is on the other test.
    const first = await uploadRun([
      { name: "cancelsOrder", ...gateway },
      { name: "voidsOrder", ...gateway },
    ]);
    const old = await resultOf(first, "cancelsOrder");
    await decide(old.id, { type: "product_bug", bugs: ["PAY-1"] });
    await decide((await resultOf(first, "voidsOrder")).id, { type: "system_issue" });
    // cancelsOrder is renamed cancelsAnOrder (passing this time) and the alias is made.
    const renamed = await uploadRun([{ name: "cancelsAnOrder" }, { name: "voidsOrder" }]);
    const made = await apps.user.inject({
      method: "POST",
      url: "/v1/test-aliases",
      payload: {
        testId: old.testId,
        canonicalTestId: (await resultOf(renamed, "cancelsAnOrder")).testId,
      },
    });
    expect(made.statusCode).toBe(201);
    // Its next failure is the same test's: the old name's decision, not the group's newest.
    const next = await uploadRun([{ name: "cancelsAnOrder", ...gateway }, { name: "voidsOrder" }]);
    const [group] = await groupsOf(next);
    expect(group?.defect).toMatchObject({ type: "product_bug", bugs: ["PAY-1"], auto: true });
    expect(group?.defect.evidence).toMatchObject({ runKey: first, sameTest: true });
  });
});
