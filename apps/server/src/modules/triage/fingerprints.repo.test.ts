import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { untilWaitingOnLock } from "../../../test/until.js";
import { storeRunFingerprints, type FingerprintRow, type GroupInput } from "./fingerprints.repo.js";
import { findGroup } from "./group-detail.repo.js";

/**
 * How triage files a run's failures into groups (fingerprints.repo.ts) on real PostgreSQL: a known
 * group's row is left as it is, its last seen read from its newest occurrence; an older run moves
 * its first seen; two uploads making the same new group at once share one row.
 */

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

const day = (n: number) => new Date(Date.UTC(2026, 10, n, 6));

function group(fingerprint: string, resultId: number, seenAt: Date): GroupInput {
  return { fingerprint, errorType: "AssertionError", message: "m", frame: null, resultId, seenAt };
}

function row(fingerprint: string, resultId: number, seenAt: Date): FingerprintRow {
  return { resultId, testId: 7, fingerprint, platform: null, branch: "main", site: null, seenAt };
}

/** Files one failure of `fingerprint` as run `runId`'s only failure. */
async function file(runId: number, fingerprint: string, resultId: number, seenAt: Date) {
  const client = await database.db.pool.connect();
  try {
    await storeRunFingerprints(
      client,
      { id: runId, family: "backend", firstTime: true },
      [group(fingerprint, resultId, seenAt)],
      [row(fingerprint, resultId, seenAt)],
    );
  } finally {
    client.release();
  }
}

async function groupRow(fingerprint: string) {
  const { rows } = await database.db.pool.query<{ id: string; xmin: string }>(
    "SELECT id, xmin::text FROM failure_groups WHERE fingerprint = $1",
    [fingerprint],
  );
  return rows[0]!;
}

describe("filing failures into groups", () => {
  it("leaves a known group's row unwritten and reads its last seen from its newest occurrence", async () => {
    await file(1, "aaaa000000000001", 101, day(10));
    const made = await groupRow("aaaa000000000001");
    await file(2, "aaaa000000000001", 201, day(11));
    await file(3, "aaaa000000000001", 301, day(12));

    const after = await groupRow("aaaa000000000001");
    expect(after.xmin).toBe(made.xmin);
    const found = await findGroup(database.db.pool, Number(after.id));
    expect(found?.first_seen_at).toEqual(day(10));
    expect(found?.last_seen_at).toEqual(day(12));
    expect(found?.count).toBe(3);
  });

  it("moves first seen to an older run filed later (a backfill), and only then", async () => {
    await file(4, "bbbb000000000001", 401, day(20));
    await file(5, "bbbb000000000001", 501, day(18));
    const { rows } = await database.db.pool.query(
      `SELECT first_run_id::int, first_result_id::int, first_seen_at FROM failure_groups
       WHERE fingerprint = 'bbbb000000000001'`,
    );
    expect(rows[0]).toEqual({ first_run_id: 5, first_result_id: 501, first_seen_at: day(18) });

    await file(6, "bbbb000000000001", 601, day(19));
    const { rows: later } = await database.db.pool.query(
      "SELECT first_run_id::int FROM failure_groups WHERE fingerprint = 'bbbb000000000001'",
    );
    expect(later[0]).toEqual({ first_run_id: 5 });
  });

  it("gives two uploads that make the same new group at once one row, both filed into it", async () => {
    const first = await database.db.pool.connect();
    const second = await database.db.pool.connect();
    try {
      const { rows: pid } = await second.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
      await first.query("BEGIN");
      await storeRunFingerprints(
        first,
        { id: 7, family: "backend", firstTime: true },
        [group("cccc000000000001", 701, day(25))],
        [row("cccc000000000001", 701, day(25))],
      );
      // The second waits on the first's uncommitted group, then finds it once it commits.
      const waiting = storeRunFingerprints(
        second,
        { id: 8, family: "backend", firstTime: true },
        [group("cccc000000000001", 801, day(25))],
        [row("cccc000000000001", 801, day(25))],
      );
      await untilWaitingOnLock(
        database.db.pool,
        pid[0]!.pid,
        "the second upload to wait for the first's group",
      );
      await first.query("COMMIT");
      await waiting;
    } finally {
      first.release();
      second.release();
    }
    const { rows } = await database.db.pool.query(
      `SELECT f.result_id::int, g.fingerprint FROM result_fingerprints f
       JOIN failure_groups g ON g.id = f.group_id
       WHERE g.fingerprint = 'cccc000000000001' ORDER BY f.result_id`,
    );
    expect(rows).toEqual([
      { result_id: 701, fingerprint: "cccc000000000001" },
      { result_id: 801, fingerprint: "cccc000000000001" },
    ]);
  });
});
