import type { DhMissingRows, DhRun } from "@assay/core";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDhDemoApp, type DhDemoApp } from "../../../test/dh-demo-app.js";
import { findMissingRows } from "./missing-rows.js";

/**
 * Find missing rows on the demo stores, through the real app: the demo's Redshift side of
 * Legacy Dev lacks visits 1207 and 2950, and its queries table does not exist.
 */

let demo: DhDemoApp;
beforeAll(async () => {
  demo = await startDhDemoApp();
});
afterAll(async () => {
  await demo?.close();
});

async function finishedRun(payload: Record<string, unknown>): Promise<DhRun> {
  return demo.finished((await demo.start(payload)).json<{ id: number }>().id);
}

const find = (runId: number, rowId: number, app: FastifyInstance = demo.user) =>
  app.inject({ method: "POST", url: `/v1/dh/runs/${runId}/rows/${rowId}/missing-rows` });
const stored = (runId: number, rowId: number) =>
  demo.user.inject({ method: "GET", url: `/v1/dh/runs/${runId}/rows/${rowId}/missing-rows` });

describe("Find missing rows", () => {
  let legacy: DhRun;
  const rowOf = (entity: string) => {
    const row = legacy.rows.find((r) => r.entity === entity);
    if (!row) throw new Error(`no row ${entity}`);
    return row;
  };
  beforeAll(async () => {
    legacy = await finishedRun({
      platform: "legacy",
      type: "sql",
      envType: "dev",
      env: "legacy-dev",
    });
  });

  it("lists the keys the destination lacks for an entity with unequal counts", async () => {
    const visits = rowOf("Visits");
    expect(visits).toMatchObject({ status: "Unequal Counts", difference: -2 });
    const res = await find(legacy.id, visits.id);
    expect(res.statusCode).toBe(200);
    const body = res.json<DhMissingRows>();
    expect(body).toMatchObject({
      entity: "Visits",
      key: "id",
      missing: ["1207", "2950"],
      extra: [],
      truncated: false,
      timedOut: false,
      limit: 1000,
    });
    expect(body.destination).toContain("dh_demo_legacy_redshift.visits");
    // The environment and its configured source names; never the database's host and port.
    expect(body.source).toBe(
      "dh_demo_legacy_mysql.visits (Legacy Dev (demo), source demo-postgres)",
    );
    expect(body.destination).toContain("Legacy Dev (demo), destination ");
    const { hostname, port } = new URL(demo.database.url);
    expect(JSON.stringify(body)).not.toContain(`${hostname}:${port}`);
  });

  it("finds nothing for an entity whose tables hold the same keys", async () => {
    const res = await find(legacy.id, rowOf("Subjects").id);
    expect(res.json()).toMatchObject({ missing: [], extra: [], keysRead: 0 });
  });

  it("needs sign-in", async () => {
    const res = await find(legacy.id, rowOf("Visits").id, demo.anonymous);
    expect(res.statusCode).toBe(401);
  });

  it("answers a failing data store with 502 and a sentence; the database's text goes to the log", async () => {
    const res = await find(legacy.id, rowOf("Queries").id);
    expect(res.statusCode).toBe(502);
    const message: string = res.json().error.message;
    const requestId = res.headers["x-request-id"] ?? /request id (\S+)\./.exec(message)?.[1];
    expect(message).toBe(
      `Find missing rows could not read Queries in Legacy Dev (demo): a data store refused or failed the query. The server log has the details under request id ${requestId}.`,
    );
    expect(message).not.toMatch(/does not exist|dh_demo|127\.0\.0\.1/);
    const logged = demo.testApp.logs.find((l) => l.reqId === requestId && l.level === 50);
    expect(JSON.stringify(logged)).toMatch(/queries.*does not exist/);
    // A failed search keeps nothing: the dialog offers to search again.
    expect((await stored(legacy.id, rowOf("Queries").id)).json()).toEqual({ data: null });
  });

  it("keeps the result with the row: reopening shows it and when, until recomputed", async () => {
    const unsearched = await stored(legacy.id, rowOf("Diary Entries").id);
    expect(unsearched.statusCode).toBe(200);
    expect(unsearched.json()).toEqual({ data: null });

    const visits = rowOf("Visits");
    const first = (await find(legacy.id, visits.id)).json<DhMissingRows>();
    expect(Date.parse(first.computedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect((await stored(legacy.id, visits.id)).json()).toEqual({ data: first });

    // The destination catches up on one key: the kept result stays as computed until asked.
    await demo.database.db.pool.query("INSERT INTO dh_demo_legacy_redshift.visits VALUES (1207)");
    try {
      expect((await stored(legacy.id, visits.id)).json().data.missing).toEqual(["1207", "2950"]);
      const again = (await find(legacy.id, visits.id)).json<DhMissingRows>();
      expect(again.missing).toEqual(["2950"]);
      expect(Date.parse(again.computedAt)).toBeGreaterThan(Date.parse(first.computedAt));
      expect((await stored(legacy.id, visits.id)).json()).toEqual({ data: again });
    } finally {
      await demo.database.db.pool.query(
        "DELETE FROM dh_demo_legacy_redshift.visits WHERE id = 1207",
      );
    }
    expect((await stored(999_999, 0)).statusCode).toBe(404);
    expect((await stored(legacy.id, 99)).statusCode).toBe(404);
  });

  it("refuses a run that is not sql, an unknown run or row, and says what to do", async () => {
    const documents = await finishedRun({
      platform: "legacy",
      type: "noSql",
      envType: "dev",
      env: "legacy-docs-dev",
    });
    const notSql = await find(documents.id, 0);
    expect(notSql.statusCode).toBe(400);
    expect(notSql.json().error.message).toMatch(/choose a row of a Legacy sql report/);
    expect((await find(999_999, 0)).statusCode).toBe(404);
    expect((await find(legacy.id, 99)).statusCode).toBe(404);
  });

  it("refuses an entity without a key column, naming the setting", async () => {
    const settings = demo.testApp.config.dataHarmonization;
    if (!settings) throw new Error("the example configuration has data harmonization");
    const environments = settings.config.environments.legacy.map((e) => ({
      ...e,
      entities: e.entities.map(({ key: _key, ...entity }) => entity),
    }));
    const deps = {
      db: demo.database.db,
      jobs: undefined as never,
      settings: {
        ...settings,
        config: {
          ...settings.config,
          environments: { ...settings.config.environments, legacy: environments },
        },
      },
      context: {
        secrets: settings.secrets,
        assayDatabaseUrl: demo.database.url,
        dataDir: demo.dataDir,
      },
    };
    await expect(findMissingRows(deps, legacy.id, rowOf("Visits").id)).rejects.toMatchObject({
      statusCode: 400,
      message: expect.stringMatching(/has no key column: add key:/),
    });
  });
});
