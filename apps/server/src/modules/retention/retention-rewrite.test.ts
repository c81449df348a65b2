import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  insertApiRequests,
  insertAttachment,
  insertResult,
  insertRun,
  insertTest,
  type RunRef,
  type TestRef,
} from "../../../test/factories.js";
import { startRetentionTestApp, type RetentionTestApp } from "../../../test/retention-months.js";
import type { TestDatabase } from "../../../test/test-database.js";
import { partitionName } from "../storage/partitions.repo.js";
import { upkeepPartitions } from "../storage/storage.jobs.js";
import { runRetentionPass } from "./retention.pass.js";

/*
 * The month that holds the cut-off keeps a run, so retention empties it row by row; the pass
 * then copies its kept rows into a new partition and swaps it in (retention.rewrite.ts), which
 * returns the removed rows' disk. Here a first pass is stopped mid-copy (its lease taken away, as
 * a killed server's runs out) and the next pass cleans up and rewrites, while reads and writes
 * go on.
 */

const now = new Date();
const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 4, 10));
const month = partitionName(at);
const STEPS = JSON.stringify(
  Array.from({ length: 6 }, (_, i) => ({ action: `step ${i}: fill the form`, passed: true })),
);

let retention: RetentionTestApp;
let database: TestDatabase;
let test: TestRef;
let kept: RunRef;

const query = <T extends object>(sql: string, values: unknown[] = []) =>
  database.db.pool.query<T>(sql, values).then((r) => r.rows);

/** Many results of the run, in SQL: a month worth rewriting. */
const fill = (run: RunRef, n: number) =>
  query(
    `INSERT INTO results (run_id, run_at, test_id, test_run_test_id, attempt, is_final, flaky,
                          status, name, suite_path, tags, duration_ms, json_steps)
     SELECT $1, (SELECT created_at FROM runs WHERE id = $1), $2, 'bulk-' || g, 0, true, false,
            'passed', 'bulk ' || g, ARRAY['suite'], '{}', 1000, $4::jsonb
     FROM generate_series(1, $3) g`,
    [run.id, test.id, n, STEPS],
  );

const monthState = async () =>
  (
    await query<{ oid: number; bytes: number; copies: number; triggers: number; logged: number }>(
      `SELECT c.oid::int AS oid, pg_total_relation_size(c.oid)::float8 AS bytes,
              (SELECT count(*)::int FROM pg_class
               WHERE relnamespace = 'retention_rewrite'::regnamespace) AS copies,
              (SELECT count(*)::int FROM pg_trigger WHERE tgrelid = c.oid
                 AND tgname = 'retention_rewrite_log') AS triggers,
              (SELECT count(*)::int FROM retention_rewrite_changes) AS logged
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
       WHERE i.inhparent = 'results'::regclass AND c.relname = $1`,
      [month],
    )
  )[0];

const keptRows = () =>
  query<{ id: number; key: string; status: string }>(
    `SELECT id::float8 AS id, test_run_test_id AS key, status FROM results
     WHERE run_id = $1 ORDER BY id`,
    [kept.id],
  );

beforeAll(async () => {
  retention = await startRetentionTestApp();
  database = retention.database;
  test = await insertTest(database.db, { title: "pays the invoice" });
  for (const day of [0, 1]) {
    const when = new Date(at.getTime() + day * 86_400_000);
    const run = await insertRun(database.db, { created_at: when, started_at: when, total: 1500 });
    await fill(run, 1500);
  }
  kept = await insertRun(database.db, {
    branch: "keep/forever",
    created_at: at,
    started_at: at,
    total: 203,
  });
  await fill(kept, 200);
  for (let i = 0; i < 3; i++) {
    const result = await insertResult(database.db, kept, test, { start_time: at });
    await insertAttachment(database.db, result, { object_key: `k/${result.id}` });
    await insertApiRequests(database.db, result, 2);
  }
  await upkeepPartitions(database.db, now);
});

afterAll(async () => {
  await retention?.close();
});

describe("retention rewrites the month that holds the cut-off", () => {
  let stopped: { oid: number; bytes: number };

  it("leaves the month whole and in place when the pass is stopped mid-copy", async () => {
    const before = await keptRows();
    const outcome = await runRetentionPass(
      retention.deps({
        step: async () => {
          await query(`UPDATE retention_passes SET lease_until = now() - interval '1 second'`);
        },
      }),
      "server-a",
      "nightly",
      now,
    );
    expect(outcome).toMatchObject({ state: "failed", totals: { runs: 2, results: 3000 } });
    expect(outcome!.message).toMatch(/lease/);
    const state = (await monthState())!;
    // What a killed server leaves: the copy and the trigger that logs the month's writes.
    expect(state).toMatchObject({ copies: 1, triggers: 1 });
    expect(await keptRows()).toEqual(before);
    stopped = state;
  });

  it("cleans up next pass and rewrites the month, smaller, rows, ids and links kept", async () => {
    const before = await keptRows();
    const ids = before.slice(1).map((row) => row.id);
    const reads = { n: 0, wrong: 0, errors: 0, done: false };
    const reader = (async () => {
      while (!reads.done) {
        try {
          const [row] = await query<{ n: number }>(
            `SELECT count(*)::int AS n FROM results WHERE id = ANY($1::bigint[])`,
            [ids],
          );
          reads.n += 1;
          if (row!.n !== ids.length) reads.wrong += 1;
        } catch {
          reads.errors += 1;
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    let added = 0;
    const outcome = await runRetentionPass(
      retention.deps({
        pagesPerCopy: 8,
        step: async (step) => {
          const from = reads.n;
          while (reads.n < from + 3) await new Promise((resolve) => setTimeout(resolve, 5));
          if (step !== "copied") return;
          // Writes into the month while it is copied: carried over at the swap.
          added = (await insertResult(database.db, kept, test, { start_time: at })).id;
          await query(`UPDATE results SET status = 'failed' WHERE id = $1`, [before[1]!.id]);
          await query(`DELETE FROM results WHERE id = $1`, [before[0]!.id]);
        },
      }),
      "server-b",
      "nightly",
      now,
    );
    reads.done = true;
    await reader;
    expect(outcome).toMatchObject({ state: "finished", totals: { rewritten: [month] } });
    const state = (await monthState())!;
    expect(state).toMatchObject({ copies: 0, triggers: 0, logged: 0 });
    expect(state.oid).not.toBe(stopped.oid);
    expect(state.bytes).toBeLessThan(stopped.bytes / 2);
    const after = await keptRows();
    expect(after).toEqual([
      { ...before[1]!, status: "failed" },
      ...before.slice(2),
      { id: added, key: expect.any(String), status: "passed" },
    ]);
    const [links] = await query<{ attachments: number; requests: number; orphans: number }>(
      `SELECT (SELECT count(*)::int FROM attachments a JOIN results r ON r.id = a.result_id
               WHERE r.run_id = $1) AS attachments,
              (SELECT count(*)::int FROM api_requests q JOIN results r ON r.id = q.result_id
               WHERE r.run_id = $1) AS requests,
              (SELECT count(*)::int FROM attachments
               WHERE result_id NOT IN (SELECT id FROM results)) AS orphans`,
      [kept.id],
    );
    expect(links).toEqual({ attachments: 3, requests: 6, orphans: 0 });
    expect(reads).toMatchObject({ wrong: 0, errors: 0 });
    expect(reads.n).toBeGreaterThanOrEqual(6);
    // The month is a partition of results again: a read by run prunes to it.
    const [routed] = await query<{ name: string }>(
      `SELECT tableoid::regclass::text AS name FROM results WHERE id = $1`,
      [added],
    );
    expect(routed!.name).toBe(month);
  });

  it("leaves a month whose free share is below the threshold as it is", async () => {
    const late = await insertRun(database.db, { created_at: at, started_at: at, total: 100 });
    await fill(late, 100);
    const before = (await monthState())!;
    const outcome = await runRetentionPass(
      retention.deps({ minFreeShare: 0.9 }),
      "server-c",
      "nightly",
      now,
    );
    expect(outcome).toMatchObject({ state: "finished", totals: { runs: 1, rewritten: [] } });
    expect((await monthState())!.oid).toBe(before.oid);
  });
});
