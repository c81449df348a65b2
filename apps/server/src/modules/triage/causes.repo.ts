import type pg from "pg";
import type { DefectType } from "@assay/core";

/**
 * Triage's lookups by result: each failed result's group and current type (the cards' page
 * lookup, flaky's "groups of these results"), the results of a run a filter keeps (the results
 * dialogs' group and type filters), and a run's groups first seen in it (notify).
 */

export interface ResultCauseRow {
  result_id: number;
  group_id: number;
  type: DefectType;
  auto: boolean;
  comment: string;
  bugs: string[];
}

/** The group and current type of each of `resultIds` that failed (the others are absent). */
export async function causesOfResults(
  db: pg.ClientBase | pg.Pool,
  resultIds: readonly number[],
): Promise<ResultCauseRow[]> {
  if (resultIds.length === 0) return [];
  const { rows } = await db.query<ResultCauseRow>(
    `SELECT rf.result_id::float8 AS result_id, rf.group_id::float8 AS group_id,
            coalesce(d.type, 'to_investigate') AS type, coalesce(d.auto, false) AS auto,
            coalesce(d.comment, '') AS comment, coalesce(d.bugs, '{}') AS bugs
     FROM result_fingerprints rf LEFT JOIN defect_decisions d ON d.id = rf.defect_id
     WHERE rf.result_id = ANY($1::bigint[])
     ORDER BY rf.result_id`,
    [resultIds],
  );
  return rows;
}

export interface RunCauseFilter {
  groupId?: number;
  type?: DefectType;
}

/** The run's failed results of a group and/or of a current type, by id. */
export async function runResultIdsWhere(
  db: pg.ClientBase | pg.Pool,
  runId: number,
  filter: RunCauseFilter,
): Promise<number[]> {
  const { rows } = await db.query<{ result_id: number }>(
    `SELECT rf.result_id::float8 AS result_id
     FROM result_fingerprints rf LEFT JOIN defect_decisions d ON d.id = rf.defect_id
     WHERE rf.run_id = $1
       AND ($2::bigint IS NULL OR rf.group_id = $2)
       AND ($3::text IS NULL OR coalesce(d.type, 'to_investigate') = $3)`,
    [runId, filter.groupId ?? null, filter.type ?? null],
  );
  return rows.map((row) => row.result_id);
}

/** The run's failed results of these tests (the Failed Summary's tag groups). */
export async function runResultIdsOfTests(
  db: pg.ClientBase | pg.Pool,
  runId: number,
  testIds: readonly number[],
): Promise<number[]> {
  const { rows } = await db.query<{ result_id: number }>(
    `SELECT result_id::float8 AS result_id FROM result_fingerprints
     WHERE run_id = $1 AND test_id = ANY($2::bigint[]) ORDER BY result_id`,
    [runId, testIds],
  );
  return rows.map((row) => row.result_id);
}

export interface NewGroupRow {
  id: number;
  fingerprint: string;
  error_type: string;
  message: string;
  count: number;
  tests: number[];
}

/** The run's failure groups first seen in it, most results first. */
export async function newGroupsOfRun(db: pg.Pool, runId: number): Promise<NewGroupRow[]> {
  const { rows } = await db.query<NewGroupRow>(
    `SELECT g.id::float8 AS id, g.fingerprint, g.error_type, g.message, count(*)::int AS count,
            array_agg(DISTINCT rf.test_id::float8) AS tests
     FROM result_fingerprints rf JOIN failure_groups g ON g.id = rf.group_id
     WHERE rf.run_id = $1 AND g.first_run_id = $1
     GROUP BY g.id ORDER BY count(*) DESC, g.id`,
    [runId],
  );
  return rows;
}
