import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stepsOf } from "../../db/results-sql.js";
import {
  insertApiRequests,
  insertAttachment,
  insertResult,
  insertRun,
  insertTest,
  type RunRef,
} from "../../../test/factories.js";
import {
  KEEP_BRANCH_POLICY,
  startRetentionTestApp,
  type RetentionTestApp,
} from "../../../test/retention-months.js";
import type { TestDatabase } from "../../../test/test-database.js";
import { partitionName } from "../storage/partitions.repo.js";
import { upkeepPartitions } from "../storage/storage.jobs.js";
import { estimateRetention } from "./retention.estimate.js";
import { runRetentionPass } from "./retention.pass.js";

/*
 * Results in their monthly partitions (migration 0191, test_results_pYYYYMM by their run's
 * created_at; the storage upkeep makes the months of older runs). A month whose every run goes
 * is detached and dropped whole (its disk returned at once); a month that also holds a run the
 * policy keeps is emptied row by row instead, and the kept run stays whole.
 */

const now = new Date();
const monthStart = (back: number) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
const inMonth = (back: number, day: number) =>
  new Date(monthStart(back).getTime() + day * 86_400_000);
const month4 = partitionName(monthStart(4));
const month3 = partitionName(monthStart(3));

let retention: RetentionTestApp;
let database: TestDatabase;
const runs: Record<string, RunRef> = {};

beforeAll(async () => {
  retention = await startRetentionTestApp();
  database = retention.database;
  const test = await insertTest(database.db, { title: "pays the invoice" });
  const add = async (name: string, at: Date, branch = "main") => {
    const run = await insertRun(database.db, {
      test_run_key: name,
      family: "backend",
      branch,
      created_at: at,
      started_at: at,
      total: 3,
      passed: 2,
      failed: 1,
    });
    // The run's steps stored once in its month's texts (migration 0216), as ingestion does.
    const { rows } = await database.db.pool.query<{ ref: string }>(
      `INSERT INTO result_texts (month, hash, body)
       VALUES (date_trunc('month', $1::timestamptz, 'UTC'), md5($2)::uuid, $2)
       ON CONFLICT DO NOTHING RETURNING hash AS ref`,
      [at, JSON.stringify([{ action: `open ${name}`, passed: true }])],
    );
    const steps_ref = rows[0]!.ref;
    for (const status of ["passed", "passed", "failed"] as const) {
      const result = await insertResult(database.db, run, test, {
        status,
        start_time: at,
        steps_ref,
      });
      await retention.testApp.objects.put(`p/${result.id}`, Buffer.alloc(10), {
        contentType: "image/png",
      });
      await insertAttachment(database.db, result, { object_key: `p/${result.id}`, size: 10 });
      await insertApiRequests(database.db, result, 2);
    }
    runs[name] = run;
  };
  await add("month4-old", inMonth(4, 10));
  await add("month4-kept", inMonth(4, 12), "keep/forever");
  await add("month3-old", inMonth(3, 10));
  await add("month3-old2", inMonth(3, 20));
  await add("recent", new Date(now.getTime() - 86_400_000));
  // The runs of months 4 and 3 back arrived in the default partition; the upkeep moves them.
  const made = await upkeepPartitions(database.db, now);
  expect(made).toEqual(expect.arrayContaining([month3, month4]));
});

afterAll(async () => {
  await retention?.close();
});

const partitionNames = async () =>
  (
    await database.db.pool.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
       WHERE i.inhparent = 'results'::regclass ORDER BY 1`,
    )
  ).rows.map((row) => row.name);

describe("retention on monthly partitions", () => {
  it("plans to drop only the month whose every run goes, with its exact size", async () => {
    const estimate = await estimateRetention(database.db, KEEP_BRANCH_POLICY, now);
    expect(estimate.partitions.map((p) => p.name)).toEqual([month3]);
    expect(estimate.partitions[0]!.bytes).toBeGreaterThan(0);
    expect(estimate.runs).toBe(3);
    expect(estimate.results).toBe(9);
  });

  it("detaches and drops that month, empties the mixed one row by row, keeps the kept run", async () => {
    const outcome = await runRetentionPass(retention.deps(), "server-a", "nightly", now);
    expect(outcome).toMatchObject({
      state: "finished",
      totals: { runs: 3, results: 9, attachments: 9, partitions: [month3] },
    });
    const names = await partitionNames();
    expect(names).not.toContain(month3);
    expect(names).toContain(month4);
    const exists = await database.db.pool.query(`SELECT to_regclass($1) AS t`, [month3]);
    expect(exists.rows[0].t).toBeNull();
    const { rows } = await database.db.pool.query<{ key: string; results: number; api: number }>(
      `SELECT test_run_key AS key,
              (SELECT count(*)::int FROM results r WHERE r.run_id = runs.id) AS results,
              (SELECT count(*)::int FROM api_requests a WHERE a.run_id = runs.id) AS api
       FROM runs ORDER BY id`,
    );
    expect(rows).toEqual([
      { key: "month4-kept", results: 3, api: 6 },
      { key: "recent", results: 3, api: 6 },
    ]);
    const orphans = await database.db.pool.query(
      `SELECT count(*)::int AS n FROM api_requests WHERE run_id NOT IN (SELECT id FROM runs)`,
    );
    expect(orphans.rows[0].n).toBe(0);
    const rolled = await database.db.pool.query(
      `SELECT sum(passed)::int AS passed, sum(failed)::int AS failed FROM retention_test_days`,
    );
    expect(rolled.rows[0]).toEqual({ passed: 6, failed: 3 });
    // The dropped month's texts went with it; the kept run still reads its steps (the emptied
    // run's text stays until its month goes).
    const texts = await database.db.pool.query<{ body: string; month: Date }>(
      `SELECT body, month FROM result_texts ORDER BY month, body`,
    );
    expect(texts.rows.map((t) => t.body)).toEqual([
      '[{"action":"open month4-kept","passed":true}]',
      '[{"action":"open month4-old","passed":true}]',
      '[{"action":"open recent","passed":true}]',
    ]);
    const textsPartition = await database.db.pool.query(`SELECT to_regclass($1) AS t`, [
      month3.replace("test_results_", "result_texts_"),
    ]);
    expect(textsPartition.rows[0].t).toBeNull();
    const kept = await database.db.pool.query<{ steps: { action: string }[] }>(
      `SELECT ${stepsOf("r")} AS steps FROM results r WHERE run_id = $1`,
      [runs["month4-kept"]!.id],
    );
    expect(kept.rows.map((r) => r.steps[0]!.action)).toEqual(Array(3).fill("open month4-kept"));
  });
});
