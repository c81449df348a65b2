import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  insertApiRequests,
  insertAttachment,
  insertResult,
  insertRun,
  insertTest,
} from "../../../test/factories.js";
import { buildTestApp } from "../../../test/build-test-app.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { withTransaction } from "../../db/pool.js";
import { findResult, listFrontendResults } from "../runs/results.repo.js";
import { untilWaitingOnLock } from "../../../test/until.js";
import {
  createMonthPartition,
  ensureMonthPartitions,
  listResultPartitions,
  partitionName,
} from "./partitions.repo.js";
import { MONTHS_AHEAD, partitionUpkeepQueue, upkeepPartitions } from "./storage.jobs.js";

// Results partitioned by month of their run's created_at (migration 0191), on real PostgreSQL.

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

async function partitionOf(resultId: number): Promise<string> {
  const { rows } = await database.db.pool.query<{ name: string }>(
    "SELECT tableoid::regclass::text AS name FROM results WHERE id = $1",
    [resultId],
  );
  return rows[0]!.name;
}

describe("results' monthly partitions", () => {
  it("exist from this month to two months ahead after the migration, the default last", async () => {
    const now = new Date();
    const months = (await listResultPartitions(database.db.pool)).map((p) => p.name);
    const expected = Array.from({ length: MONTHS_AHEAD + 1 }, (_, i) =>
      partitionName(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + i, 1))),
    );
    expect(months.slice(-MONTHS_AHEAD - 2)).toEqual([...expected, "test_results_pdefault"]);
    const [first] = await listResultPartitions(database.db.pool);
    expect(first!.to!.getTime() - first!.from!.getTime()).toBeGreaterThanOrEqual(28 * 86_400_000);
  });

  it("put a result in its run's month; one without a partition waits in the default partition until its month is made", async () => {
    const test = await insertTest(database.db);
    const old = await insertRun(database.db, { created_at: new Date("2019-03-15T23:30:00Z") });
    const current = await insertRun(database.db);
    const waiting = await insertResult(database.db, old, test);
    const placed = await insertResult(database.db, current, test);
    expect(await partitionOf(placed.id)).toBe(partitionName(new Date()));
    expect(await partitionOf(waiting.id)).toBe("test_results_pdefault");

    const made = await withTransaction(database.db, (client) =>
      ensureMonthPartitions(client, new Date("2019-02-10Z"), new Date("2019-03-01Z")),
    );
    expect(made).toEqual({ created: ["test_results_p201902", "test_results_p201903"], moved: 1 });
    expect(await partitionOf(waiting.id)).toBe("test_results_p201903");
    const march = (await listResultPartitions(database.db.pool)).find(
      (p) => p.name === "test_results_p201903",
    );
    expect(march).toMatchObject({
      from: new Date("2019-03-01T00:00:00Z"),
      to: new Date("2019-04-01T00:00:00Z"),
    });
    // The run's reads find it where it went, by its run and the run's run_at.
    expect((await listFrontendResults(database.db, old.id)).map((r) => r.id)).toEqual([waiting.id]);
    expect((await findResult(database.db, old.id, waiting.test_run_test_id))?.id).toBe(waiting.id);
  });

  it("are made ahead by the upkeep once, whichever server runs it", async () => {
    const later = new Date(Date.UTC(new Date().getUTCFullYear() + 1, 5, 10));
    const [one, two] = await Promise.all([
      upkeepPartitions(database.db, later),
      upkeepPartitions(database.db, later),
    ]);
    expect([...one, ...two].sort()).toEqual(
      [0, 1, 2].map((i) =>
        partitionName(new Date(Date.UTC(later.getUTCFullYear(), later.getUTCMonth() + i, 1))),
      ),
    );
  });

  it("are made by the upkeep for months the default partition holds (a restore, a stopped server)", async () => {
    const test = await insertTest(database.db);
    const run = await insertRun(database.db, { created_at: new Date("2018-07-31T23:59:59.999Z") });
    const result = await insertResult(database.db, run, test);
    expect(await partitionOf(result.id)).toBe("test_results_pdefault");
    expect(await upkeepPartitions(database.db)).toEqual(["test_results_p201807"]);
    expect(await partitionOf(result.id)).toBe("test_results_p201807");
    expect(await upkeepPartitions(database.db)).toEqual([]);
  });

  it("keep a read of a month being moved out of the default partition whole: it waits, then finds every row", async () => {
    const test = await insertTest(database.db);
    const run = await insertRun(database.db, { created_at: new Date("2017-03-15T04:00:00Z") });
    for (let i = 0; i < 3; i++) await insertResult(database.db, run, test);
    const mover = await database.db.pool.connect();
    const reader = await database.db.pool.connect();
    const { rows: pid } = await reader.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    try {
      await mover.query("BEGIN");
      expect(await createMonthPartition(mover, new Date("2017-03-01T00:00:00Z"))).toBe(3);
      // A run's read, as the run view's (parameters: planned apart from its execution), started
      // while the move is not committed: it must not plan without the new partition, then find
      // the default partition emptied.
      const read = reader.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM results
          WHERE run_id = $1 AND run_at = (SELECT created_at FROM runs WHERE id = $1)`,
        [run.id],
      );
      await untilWaitingOnLock(database.db.pool, pid[0]!.pid, "the read to wait for the move");
      await mover.query("COMMIT");
      expect((await read).rows[0]!.n).toBe(3);
    } finally {
      mover.release();
      reader.release();
    }
  });

  it("keep result ids unique, from one sequence", async () => {
    const test = await insertTest(database.db);
    const run = await insertRun(database.db, { created_at: new Date("2019-02-01T00:00:00Z") });
    const other = await insertRun(database.db);
    const a = await insertResult(database.db, run, test);
    const b = await insertResult(database.db, other, test);
    expect(a.id).not.toBe(b.id);
    const { rows } = await database.db.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM results WHERE id = ANY($1::bigint[])",
      [[a.id, b.id]],
    );
    expect(rows[0]!.n).toBe(2);
  });

  it("read only the run's partition for a run's results", async () => {
    const run = await insertRun(database.db);
    const { rows } = await database.db.pool.query<{ "QUERY PLAN": string }>(
      `EXPLAIN (ANALYZE, COSTS OFF)
       SELECT id FROM results WHERE run_id = $1 AND run_at = (SELECT created_at FROM runs WHERE id = $1)`,
      [run.id],
    );
    const plan = rows.map((r) => r["QUERY PLAN"]).join("\n");
    const partitions = (await listResultPartitions(database.db.pool)).length;
    expect(plan.match(/never executed/g)?.length).toBe(partitions - 1);
  });
  it("lose a deleted run's results and their attachments with it, as the cascade did before 0191", async () => {
    const test = await insertTest(database.db);
    const [gone, kept] = [await insertRun(database.db), await insertRun(database.db)];
    const result = await insertResult(database.db, gone, test);
    const other = await insertResult(database.db, kept, test);
    await insertAttachment(database.db, result);
    await insertAttachment(database.db, other);
    await insertApiRequests(database.db, result, 2);
    await database.db.pool.query("DELETE FROM runs WHERE id = $1", [gone.id]);
    const { rows } = await database.db.pool.query<{
      results: number[];
      attached: number[];
      api: number;
    }>(
      `SELECT ARRAY(SELECT id::int FROM results WHERE id = ANY($1::bigint[]) ORDER BY id) AS results,
              ARRAY(SELECT result_id::int FROM attachments WHERE result_id = ANY($1::bigint[])) AS attached,
              (SELECT count(*)::int FROM api_requests WHERE result_id = $2) AS api`,
      [[result.id, other.id], result.id],
    );
    expect(rows[0]).toEqual({ results: [other.id], attached: [other.id], api: 0 });
  });
});

describe("the storage module in the app", () => {
  it("schedules the partitions' upkeep daily and sends it at start when the app runs job handlers", async () => {
    // A database of its own: the upkeep it sends may run and move rows of the tests above.
    const own = await createTestDatabase();
    const { app } = await buildTestApp(own.db);
    try {
      const { rows } = await own.db.pool.query<{ cron: string; sent: number }>(
        `SELECT s.cron,
                (SELECT count(*)::int FROM pgboss.job j
                  WHERE j.name = s.name AND j.singleton_key = 'start') AS sent
           FROM pgboss.schedule s WHERE s.name = $1`,
        [partitionUpkeepQueue.name],
      );
      expect(rows).toEqual([{ cron: "7 1 * * *", sent: 1 }]);
    } finally {
      await app.close();
      await own.drop();
    }
  });
});
