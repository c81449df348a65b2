import type pg from "pg";
import { lastSeenOf } from "./groups.repo.js";

/** One failure group's page, the gate's counts, and the lookups of the defect routes. */

export interface GroupRow {
  id: number;
  fingerprint: string;
  error_type: string;
  message: string;
  frame: string | null;
  sample_message: string | null;
  sample_stack: string | null;
  /** Where a sample is read when none is stored: the first occurrence, then the newest. */
  first_result_id: number | null;
  newest_result_id: number | null;
  first_run_key: string | null;
  first_seen_at: Date;
  last_seen_at: Date;
  count: number;
}

export async function findGroup(db: pg.Pool, id: number): Promise<GroupRow | null> {
  const { rows } = await db.query<GroupRow>(
    `SELECT g.id::float8 AS id, g.fingerprint, g.error_type, g.message, g.frame,
            g.sample_message, g.sample_stack, g.first_result_id::float8 AS first_result_id,
            (SELECT rf.result_id::float8 FROM result_fingerprints rf WHERE rf.group_id = g.id
             ORDER BY rf.seen_at DESC LIMIT 1) AS newest_result_id,
            fr.run_key AS first_run_key, g.first_seen_at, ${lastSeenOf("g")} AS last_seen_at,
            (SELECT count(*)::int FROM result_fingerprints rf WHERE rf.group_id = g.id) AS count
     FROM failure_groups g LEFT JOIN triage_runs fr ON fr.run_id = g.first_run_id
     WHERE g.id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

const SHOWN = 100;

/** The group's tests (most occurrences first) and its latest runs, at most 100 of each. */
export async function groupTestsAndRuns(db: pg.Pool, id: number) {
  const tests = await db.query<{ test_id: number; count: number; last_seen_at: Date }>(
    `SELECT test_id::float8 AS test_id, count(*)::int AS count, max(seen_at) AS last_seen_at
     FROM result_fingerprints WHERE group_id = $1
     GROUP BY test_id ORDER BY count(*) DESC, test_id LIMIT ${SHOWN}`,
    [id],
  );
  const runs = await db.query<{ run_key: string; family: string; at: Date; count: number }>(
    `SELECT tr.run_key, tr.family, tr.run_at AS at, hits.count
     FROM (SELECT run_id, count(*)::int AS count FROM result_fingerprints
           WHERE group_id = $1 GROUP BY run_id) hits
     JOIN triage_runs tr ON tr.run_id = hits.run_id
     ORDER BY tr.run_at DESC LIMIT ${SHOWN}`,
    [id],
  );
  const defects = await db.query<{ type: string | null; count: number }>(
    `SELECT d.type, count(*)::int AS count
     FROM result_fingerprints rf LEFT JOIN defect_decisions d ON d.id = rf.defect_id
     WHERE rf.group_id = $1 GROUP BY d.type`,
    [id],
  );
  return { tests: tests.rows, runs: runs.rows, defects: defects.rows };
}

/** The results of a group in one run. */
export async function groupResultsInRun(
  db: pg.ClientBase | pg.Pool,
  runId: number,
  groupId: number,
): Promise<number[]> {
  const { rows } = await db.query<{ result_id: number }>(
    `SELECT result_id::float8 AS result_id FROM result_fingerprints
     WHERE run_id = $1 AND group_id = $2 ORDER BY result_id`,
    [runId, groupId],
  );
  return rows.map((row) => row.result_id);
}

/** The results of a group seen since `since` (setting a type for all of a group). */
export async function groupResultsSince(
  db: pg.ClientBase | pg.Pool,
  groupId: number,
  since: Date,
): Promise<number[]> {
  const { rows } = await db.query<{ result_id: number }>(
    `SELECT result_id::float8 AS result_id FROM result_fingerprints
     WHERE group_id = $1 AND seen_at >= $2 ORDER BY result_id`,
    [groupId, since],
  );
  return rows.map((row) => row.result_id);
}

/** Whether triage has the result (a failed one), and its run. */
export async function findFingerprintedResult(
  db: pg.ClientBase | pg.Pool,
  resultId: number,
): Promise<{ run_id: number } | null> {
  const { rows } = await db.query<{ run_id: number }>(
    `SELECT run_id::float8 AS run_id FROM result_fingerprints WHERE result_id = $1`,
    [resultId],
  );
  return rows[0] ?? null;
}

/** The gate's counts of a run: failed results, those in groups first seen here, to investigate. */
export async function gateCounts(db: pg.Pool, runId: number) {
  const { rows } = await db.query<{ failed: number; new_failures: number; to_investigate: number }>(
    `SELECT count(*)::int AS failed,
            count(*) FILTER (WHERE g.first_run_id = $1)::int AS new_failures,
            count(*) FILTER (WHERE d.type IS NULL OR d.type = 'to_investigate')::int AS to_investigate
     FROM result_fingerprints rf
     JOIN failure_groups g ON g.id = rf.group_id
     LEFT JOIN defect_decisions d ON d.id = rf.defect_id
     WHERE rf.run_id = $1`,
    [runId],
  );
  return rows[0] ?? { failed: 0, new_failures: 0, to_investigate: 0 };
}

/** A test's failures in some runs by group, most first (a flaky test's evidence, issue 35). */
export async function testGroupsInRuns(
  db: pg.Pool,
  testId: number,
  runIds: readonly number[],
): Promise<{ id: number; message: string; run_ids: number[] }[]> {
  if (runIds.length === 0) return [];
  const { rows } = await db.query<{ id: number; message: string; run_ids: number[] }>(
    `SELECT g.id::float8 AS id, g.message, array_agg(DISTINCT rf.run_id::float8) AS run_ids
     FROM result_fingerprints rf JOIN failure_groups g ON g.id = rf.group_id
     WHERE rf.run_id = ANY($2::bigint[]) AND rf.test_id = $1
     GROUP BY g.id, g.message ORDER BY count(*) DESC, g.id`,
    [testId, runIds],
  );
  return rows;
}
