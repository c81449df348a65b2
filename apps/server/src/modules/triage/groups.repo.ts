import type pg from "pg";
import { REGRESSION_WINDOW } from "@assay/core";

/** Triage's reads: a run's groups, groups over a period, one group, the gate's counts. */

/**
 * A failure still to investigate: no decision, or a current one of that type. The type is kept
 * beside the decision's id (migration 0183): joining defect_decisions for it read every decision
 * ever made into a hash.
 */
const TO_INVESTIGATE = "(rf.defect_type IS NULL OR rf.defect_type = 'to_investigate')";

export interface TriagedRun {
  run_id: number;
  run_key: string;
  family: string;
  executor: string | null;
  branch: string | null;
  place: string | null;
  run_at: Date;
}

const TRIAGED_RUN = `SELECT run_id::float8 AS run_id, run_key, family, executor, branch, place, run_at
                     FROM triage_runs`;

export async function findTriagedRun(db: pg.Pool, key: string): Promise<TriagedRun | null> {
  const { rows } = await db.query<TriagedRun>(`${TRIAGED_RUN} WHERE run_key = $1`, [key]);
  return rows[0] ?? null;
}

export async function findTriagedRunById(db: pg.Pool, runId: number): Promise<TriagedRun | null> {
  const { rows } = await db.query<TriagedRun>(`${TRIAGED_RUN} WHERE run_id = $1`, [runId]);
  return rows[0] ?? null;
}

export interface RunGroupRow {
  id: number;
  fingerprint: string;
  error_type: string;
  message: string;
  frame: string | null;
  count: number;
  to_investigate: number;
  tests: number[];
  newest_defect: number | null;
  first_run_id: number | null;
  first_run_key: string | null;
  first_seen_at: Date;
  is_regression: boolean;
}

/**
 * The run's failures by group, most results first: counts, not results (a 14,000-failure run's
 * answer stays small; the cards look theirs up a page at a time, causesOfResults). A group is a
 * regression when it was seen before this run and the last REGRESSION_WINDOW runs of the same
 * job (family, executor, branch, place) before it exist and do not have it.
 */
export async function runGroups(db: pg.Pool, run: TriagedRun): Promise<RunGroupRow[]> {
  // Named: prepared once per connection, its plan kept (planning was a quarter of the time).
  const { rows } = await db.query<RunGroupRow>({
    name: "triage-run-groups",
    text: `WITH job AS (
       SELECT run_id FROM triage_runs
       WHERE family = $2 AND executor IS NOT DISTINCT FROM $3 AND branch IS NOT DISTINCT FROM $4
         AND place IS NOT DISTINCT FROM $6 AND run_at < $5 AND run_id <> $1
       ORDER BY run_at DESC LIMIT ${REGRESSION_WINDOW}
     ),
     mine AS (
       SELECT rf.group_id, count(*)::int AS count,
              count(*) FILTER (WHERE ${TO_INVESTIGATE})::int AS to_investigate,
              array_agg(DISTINCT rf.test_id::float8) AS tests,
              max(rf.defect_id)::float8 AS newest_defect
       FROM result_fingerprints rf
       WHERE rf.run_id = $1
       GROUP BY rf.group_id
     )
     SELECT g.id::float8 AS id, g.fingerprint, g.error_type, g.message, g.frame,
            mine.count, mine.to_investigate, mine.tests, mine.newest_defect,
            g.first_run_id::float8 AS first_run_id, fr.run_key AS first_run_key, g.first_seen_at,
            (g.first_run_id IS DISTINCT FROM $1
             AND EXISTS (SELECT 1 FROM job)
             AND NOT EXISTS (SELECT 1 FROM result_fingerprints o
                             WHERE o.group_id = g.id AND o.run_id IN (SELECT run_id FROM job)))
              AS is_regression
     FROM mine JOIN failure_groups g ON g.id = mine.group_id
     LEFT JOIN triage_runs fr ON fr.run_id = g.first_run_id
     ORDER BY mine.count DESC, g.id`,
    values: [run.run_id, run.family, run.executor, run.branch, run.run_at, run.place],
  });
  return rows;
}

export interface GroupFilters {
  since: Date;
  family?: string;
  platform?: string;
  branch?: string;
  site?: string;
}

function filterSql(filters: GroupFilters, first: number): { sql: string; params: unknown[] } {
  const parts: string[] = [];
  const params: unknown[] = [];
  const add = (column: string, value: string | undefined) => {
    if (value === undefined || value === "") return;
    params.push(value);
    parts.push(`rf.${column} = $${first + params.length - 1}`);
  };
  add("family", filters.family);
  add("platform", filters.platform);
  add("branch", filters.branch);
  add("nora_site", filters.site);
  return { sql: parts.map((part) => ` AND ${part}`).join(""), params };
}

/**
 * SQL text of a group's last seen (failure_groups aliased `alias`): its newest occurrence, one
 * probe of result_fingerprints_group_idx. Ingest does not rewrite a known group's row for each
 * occurrence (fingerprints.repo.ts); the row's last_seen_at (its first upload's time) answers
 * only when retention has removed every occurrence.
 */
export function lastSeenOf(alias: string): string {
  return `coalesce((SELECT max(rf.seen_at) FROM result_fingerprints rf
                    WHERE rf.group_id = ${alias}.id), ${alias}.last_seen_at)`;
}

export interface GroupSummaryRow {
  id: number;
  fingerprint: string;
  error_type: string;
  message: string;
  count: number;
  runs: number;
  tests: number;
  to_investigate: number;
  first_run_key: string | null;
  first_seen_at: Date;
  last_seen_at: Date;
}

/** Groups with occurrences since `since` (and the filters), most occurrences first. */
export async function groupsOverPeriod(
  db: pg.Pool,
  filters: GroupFilters,
  limit: number,
): Promise<GroupSummaryRow[]> {
  const where = filterSql(filters, 2);
  const { rows } = await db.query<GroupSummaryRow>(
    `WITH hits AS (
       SELECT rf.group_id, count(*)::int AS count, count(DISTINCT rf.run_id)::int AS runs,
              count(DISTINCT rf.test_id)::int AS tests,
              count(*) FILTER (WHERE ${TO_INVESTIGATE})::int AS to_investigate
       FROM result_fingerprints rf
       WHERE rf.seen_at >= $1${where.sql}
       GROUP BY rf.group_id
       ORDER BY count(*) DESC, rf.group_id
       LIMIT ${limit}
     )
     SELECT g.id::float8 AS id, g.fingerprint, g.error_type, g.message, hits.count, hits.runs,
            hits.tests, hits.to_investigate, fr.run_key AS first_run_key, g.first_seen_at,
            ${lastSeenOf("g")} AS last_seen_at
     FROM hits JOIN failure_groups g ON g.id = hits.group_id
     LEFT JOIN triage_runs fr ON fr.run_id = g.first_run_id
     ORDER BY hits.count DESC, g.id`,
    [filters.since, ...where.params],
  );
  return rows;
}

/** Occurrences per UTC day since `since`, for each group of `groupIds`. */
export async function dailyCounts(
  db: pg.Pool,
  groupIds: readonly number[],
  since: Date,
): Promise<{ group_id: number; day: string; count: number }[]> {
  if (groupIds.length === 0) return [];
  const { rows } = await db.query<{ group_id: number; day: string; count: number }>(
    `SELECT group_id::float8 AS group_id,
            to_char(seen_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS count
     FROM result_fingerprints
     WHERE group_id = ANY($1::bigint[]) AND seen_at >= $2
     GROUP BY 1, 2 ORDER BY 1, 2`,
    [groupIds, since],
  );
  return rows;
}
