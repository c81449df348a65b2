import type pg from "pg";
import type { DefectType } from "@assay/core";

/**
 * Defect decisions (defect_decisions, never updated: the history) and each failed result's
 * current one (result_fingerprints.defect_id).
 */

export interface DecisionRow {
  id: number;
  result_id: number;
  type: DefectType;
  comment: string;
  bugs: string[];
  auto: boolean;
  evidence: Record<string, unknown> | null;
  decided_by: string | null;
  decided_at: Date;
}

export interface NewDecision {
  type: DefectType;
  comment: string;
  bugs: string[];
  decidedBy: string;
}

/**
 * Records one person's decision on each of `resultIds` (failed results of triage's) and makes it
 * their current one. Returns how many results it recorded.
 */
export async function recordDecisions(
  client: pg.ClientBase,
  resultIds: readonly number[],
  decision: NewDecision,
): Promise<number> {
  const { rowCount } = await client.query(
    `WITH made AS (
       INSERT INTO defect_decisions (result_id, run_id, type, comment, bugs, auto, decided_by)
       SELECT rf.result_id, rf.run_id, $2, $3, $4::text[], false, $5
       FROM result_fingerprints rf WHERE rf.result_id = ANY($1::bigint[])
       ORDER BY rf.result_id
       RETURNING id, result_id, type
     )
     UPDATE result_fingerprints rf SET defect_id = made.id, defect_type = made.type FROM made
     WHERE rf.result_id = made.result_id`,
    [resultIds, decision.type, decision.comment, decision.bugs, decision.decidedBy],
  );
  return rowCount ?? 0;
}

/** Current decisions by their ids. */
export async function decisionsById(
  client: pg.ClientBase | pg.Pool,
  ids: readonly number[],
): Promise<Map<number, DecisionRow>> {
  if (ids.length === 0) return new Map();
  const { rows } = await client.query<DecisionRow>(
    `SELECT id::float8 AS id, result_id::float8 AS result_id, type, comment, bugs, auto,
            evidence, decided_by, decided_at
     FROM defect_decisions WHERE id = ANY($1::bigint[])`,
    [ids],
  );
  return new Map(rows.map((row) => [row.id, row]));
}

/** Current decisions of results, by result id (results without one are absent). */
export async function currentDecisionsOf(
  client: pg.ClientBase | pg.Pool,
  resultIds: readonly number[],
): Promise<Map<number, DecisionRow>> {
  if (resultIds.length === 0) return new Map();
  const { rows } = await client.query<DecisionRow>(
    `SELECT d.id::float8 AS id, d.result_id::float8 AS result_id, d.type, d.comment, d.bugs,
            d.auto, d.evidence, d.decided_by, d.decided_at
     FROM result_fingerprints rf JOIN defect_decisions d ON d.id = rf.defect_id
     WHERE rf.result_id = ANY($1::bigint[])`,
    [resultIds],
  );
  return new Map(rows.map((row) => [row.result_id, row]));
}

/** A result's decisions, newest first. */
export async function decisionHistory(
  client: pg.ClientBase | pg.Pool,
  resultId: number,
): Promise<DecisionRow[]> {
  const { rows } = await client.query<DecisionRow>(
    `SELECT id::float8 AS id, result_id::float8 AS result_id, type, comment, bugs, auto,
            evidence, decided_by, decided_at
     FROM defect_decisions WHERE result_id = $1 ORDER BY id DESC`,
    [resultId],
  );
  return rows;
}

/**
 * The analysis from past decisions (issue 34): each failed result of the run without any
 * decision takes the current decision a person made in the last `days` days on a result of
 * the same group (same test first, its earlier names through aliases included, then any test)
 * or, failing that, of a group whose normalised message is at least `threshold` similar
 * (pg_trgm). It is recorded as auto, with its
 * evidence. Groups are compared pairwise, never results: a run has tens of groups, not
 * thousands. A result with a decision (a person's above all) is never touched.
 */
export async function applyPastDecisions(
  client: pg.ClientBase,
  runId: number,
  threshold: number,
  days: number,
): Promise<number> {
  const { rowCount } = await client.query(
    `WITH ac AS MATERIALIZED (SELECT test_id, canonical_id FROM test_alias_canonical),
     -- tests as their aliases resolve them: a decision on a renamed test's old name is the same
     -- test's (docs/aliases.md)
     todo AS (
       SELECT rf.result_id, coalesce(ac.canonical_id, rf.test_id) AS test_id, rf.group_id
       FROM result_fingerprints rf LEFT JOIN ac ON ac.test_id = rf.test_id
       WHERE rf.run_id = $1 AND rf.defect_id IS NULL
     ),
     people AS (
       SELECT d.id, d.decided_at, coalesce(ac.canonical_id, rf.test_id) AS test_id, rf.group_id
       FROM defect_decisions d
       JOIN result_fingerprints rf ON rf.result_id = d.result_id AND rf.defect_id = d.id
       LEFT JOIN ac ON ac.test_id = rf.test_id
       WHERE NOT d.auto AND d.decided_at > now() - make_interval(days => $3) AND rf.run_id <> $1
     ),
     -- a group's newest decision on each test, and its newest on any test
     by_test AS (
       SELECT DISTINCT ON (group_id, test_id) group_id, test_id, id FROM people
       ORDER BY group_id, test_id, decided_at DESC, id DESC
     ),
     by_group AS (
       SELECT DISTINCT ON (group_id) group_id, id FROM people
       ORDER BY group_id, decided_at DESC, id DESC
     ),
     -- the most similar other group a person decided on, for each of the run's groups
     near AS (
       SELECT DISTINCT ON (t.group_id) t.group_id AS todo_group, p.group_id AS past_group,
              similarity(tg.message, pg.message) AS similarity
       FROM (SELECT DISTINCT group_id FROM todo) t
       CROSS JOIN by_group p
       JOIN failure_groups tg ON tg.id = t.group_id
       JOIN failure_groups pg ON pg.id = p.group_id
       WHERE p.group_id <> t.group_id AND tg.error_type = pg.error_type
         AND similarity(tg.message, pg.message) >= $2
       ORDER BY t.group_id, similarity(tg.message, pg.message) DESC, p.group_id
     ),
     chosen AS (
       SELECT t.result_id,
              coalesce(e1.id, e2.id, e3.id, e4.id) AS source_id,
              CASE WHEN coalesce(e1.id, e2.id) IS NOT NULL THEN 1 ELSE n.similarity END AS similarity,
              (e1.id IS NOT NULL OR (e2.id IS NULL AND e3.id IS NOT NULL)) AS same_test
       FROM todo t
       LEFT JOIN by_test e1 ON e1.group_id = t.group_id AND e1.test_id = t.test_id
       LEFT JOIN by_group e2 ON e2.group_id = t.group_id
       LEFT JOIN near n ON n.todo_group = t.group_id
       LEFT JOIN by_test e3 ON e3.group_id = n.past_group AND e3.test_id = t.test_id
       LEFT JOIN by_group e4 ON e4.group_id = n.past_group
     ),
     made AS (
       INSERT INTO defect_decisions (result_id, run_id, type, comment, bugs, auto, evidence)
       SELECT c.result_id, $1, d.type, d.comment, d.bugs, true,
              jsonb_build_object(
                'resultId', d.result_id,
                'runKey', (SELECT run_key FROM triage_runs WHERE run_id = d.run_id),
                'decidedBy', d.decided_by,
                'decidedAt', to_char(d.decided_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                'similarity', round(c.similarity::numeric, 3),
                'sameTest', c.same_test)
       FROM chosen c JOIN defect_decisions d ON d.id = c.source_id
       ORDER BY c.result_id
       RETURNING id, result_id, type
     )
     UPDATE result_fingerprints rf SET defect_id = made.id, defect_type = made.type FROM made
     WHERE rf.result_id = made.result_id AND rf.defect_id IS NULL`,
    [runId, threshold, days],
  );
  return rowCount ?? 0;
}
