import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertResult, insertRun, insertTest } from "../../../test/factories.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { partitionName } from "../storage/partitions.repo.js";
import { upkeepPartitions } from "../storage/storage.jobs.js";
import { copyRunBack } from "./retention-demo.repo.js";

/*
 * The demo's archive copies (retention.demo.ts) on results partitioned by their run's
 * created_at (migration 0191): a copy moved back in time carries its own run_at, so its results
 * land in its month, where the demo's retention pass then finds them.
 */

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

describe("the demo's archive copy of a run", () => {
  it("dates its results' run_at with the copy and puts them in the copy's month", async () => {
    const test = await insertTest(database.db);
    const source = await insertRun(database.db, { test_run_key: "nightly-1" });
    await insertResult(database.db, source, test, { status: "passed" });
    await insertResult(database.db, source, test, { status: "failed" });

    const id = await copyRunBack(database.db.pool, "nightly-1", "nightly-1-archive-120", 120);
    expect(id).not.toBeNull();
    await upkeepPartitions(database.db);

    const { rows } = await database.db.pool.query<{ same: boolean; part: string }>(
      `SELECT r.run_at = runs.created_at AS same, r.tableoid::regclass::text AS part
       FROM results r JOIN runs ON runs.id = r.run_id WHERE r.run_id = $1`,
      [id],
    );
    const { rows: run } = await database.db.pool.query<{ created_at: Date }>(
      "SELECT created_at FROM runs WHERE id = $1",
      [id],
    );
    expect(rows).toHaveLength(2);
    expect(rows.every((row) => row.same)).toBe(true);
    expect(new Set(rows.map((row) => row.part))).toEqual(
      new Set([partitionName(run[0]!.created_at)]),
    );
  });
});
