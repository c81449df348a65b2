import { sql } from "kysely";
import type { Db } from "../../db/pool.js";
import { suitePathOf } from "../../db/results-sql.js";

/**
 * Requirements and their linked bugs, imports and edits (migration 0040), and the tests that
 * cover requirements, read from results and dynamic tags.
 */

export interface RequirementRow {
  id: number;
  rms: string;
  summary: string;
  epic: string;
  type: string;
  note: string;
  no_test_needed: boolean;
}

export interface CoverageRow {
  requirement_id: number;
  test_id: number;
  title: string;
  file: string | null;
  /** The suites the test sits in (its latest final result's), outermost first. */
  suite_path: string[];
  status: "passed" | "failed" | null;
  error_message: string | null;
}

const toRequirement = (row: RequirementRow): RequirementRow => ({ ...row, id: Number(row.id) });

export async function latestImport(db: Db) {
  return db.kysely
    .selectFrom("requirement_imports")
    .select(["source_kind", "file_name", "imported_at"])
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
}

export async function listRequirements(db: Db): Promise<RequirementRow[]> {
  const rows = await db.kysely
    .selectFrom("requirements")
    .select(["id", "rms", "summary", "epic", "type", "note", "no_test_needed"])
    // Archived requirements (no longer in their source) keep their rows, out of the matrix.
    .where("archived_at", "is", null)
    .orderBy("position")
    .orderBy("id")
    .execute();
  return rows.map(toRequirement);
}

export async function listBugs(db: Db) {
  const rows = await db.kysely
    .selectFrom("requirement_bugs")
    .select(["requirement_id", "key", "summary", "status"])
    .orderBy("requirement_id")
    .orderBy("key")
    .execute();
  return rows.map((row) => ({ ...row, requirement_id: Number(row.requirement_id) }));
}

/**
 * The tests covering each requirement with their latest result. A test covers a requirement
 * when a tag of its latest result, or a dynamic tag it is in, matches `tagPattern` (whole tag,
 * case-insensitive, optional leading '@') and names the requirement's key. Its status is the
 * latest passed or failed final result; a test whose results were all skipped has not run.
 */
export async function listCoverage(db: Db, tagPattern: string): Promise<CoverageRow[]> {
  const pattern = `^@?(${tagPattern})$`;
  // One probe of results_latest_final_idx (migration 0042) per test gives its latest final
  // result: its tags, and its status when that is passed or failed (nearly always), carried
  // along with each link. Only a covered test whose latest result was skipped, or one covered
  // through a dynamic tag alone, is probed again for its latest passed/failed one (the
  // lateral's condition on `c` is a one-time filter: no probe when it is false).
  const query = sql<CoverageRow>`
    WITH latest AS (
      SELECT t.id AS test_id, lr.tags, lr.status, lr.error_message, lr.suite_path
      FROM tests t
      CROSS JOIN LATERAL (
        SELECT r.tags, r.status, r.error_message, ${sql.raw(suitePathOf("r"))} AS suite_path
        FROM results r
        WHERE r.test_id = t.id AND r.is_final
        ORDER BY r.start_time DESC NULLS LAST, r.id DESC
        LIMIT 1
      ) lr
      -- A renamed test's old name covers nothing: its new name's latest result says (issue 35).
      WHERE NOT EXISTS (SELECT FROM test_alias_canonical ac WHERE ac.test_id = t.id)
    ), links AS (
      SELECT l.test_id, upper(regexp_replace(g.tag, '^@', '')) AS rms, l.status, l.error_message,
             l.suite_path
      FROM latest l CROSS JOIN LATERAL unnest(l.tags) AS g (tag)
      WHERE g.tag ~* ${pattern}
      UNION ALL
      SELECT tt.test_id, upper(regexp_replace(g.name, '^@', '')), NULL, NULL,
             (SELECT l.suite_path FROM latest l WHERE l.test_id = tt.test_id)
      FROM (SELECT coalesce(ac.canonical_id, d.test_id) AS test_id, d.tag_id
            FROM tagged_tests d LEFT JOIN test_alias_canonical ac ON ac.test_id = d.test_id) tt
      JOIN tags g ON g.id = tt.tag_id
      WHERE g.name ~* ${pattern}
    ), covered AS (
      -- A test linked twice (two tags, or a tag and a dynamic tag) once, its probed status kept.
      SELECT DISTINCT ON (req.id, links.test_id)
             req.id AS requirement_id, links.test_id, links.status, links.error_message,
             links.suite_path
      FROM requirements req JOIN links ON links.rms = upper(req.rms)
      WHERE req.archived_at IS NULL
      ORDER BY req.id, links.test_id, links.status NULLS LAST
    )
    SELECT c.requirement_id, c.test_id, t.title, t.file, coalesce(c.suite_path, '{}') AS suite_path,
           CASE WHEN c.status IN ('passed', 'failed') THEN c.status ELSE older.status END AS status,
           CASE WHEN c.status IN ('passed', 'failed') THEN c.error_message
                ELSE older.error_message END AS error_message
    FROM covered c
    JOIN tests t ON t.id = c.test_id
    LEFT JOIN LATERAL (
      SELECT r.status, r.error_message FROM results r
      WHERE (c.status IS NULL OR c.status NOT IN ('passed', 'failed'))
        AND r.test_id = c.test_id AND r.is_final AND r.status IN ('passed', 'failed')
      ORDER BY r.start_time DESC NULLS LAST, r.id DESC
      LIMIT 1
    ) older ON true
    ORDER BY c.requirement_id, c.test_id
  `;
  const rows = await db.kysely.transaction().execute(async (trx) => {
    // The planner's cost for 20,000 probes passes jit_above_cost; compiling took longer than
    // the query itself (1.4 s of 2 s under load, docs/performance.md) and never pays here.
    await sql`SET LOCAL jit = off`.execute(trx);
    return (await query.execute(trx)).rows;
  });
  return rows.map((row) => ({
    ...row,
    requirement_id: Number(row.requirement_id),
    test_id: Number(row.test_id),
  }));
}

/**
 * Every table the matrix reads, whose writes change its answer. results are not listed: every
 * write of results (and of the tests they register) also updates its run's row in the same
 * transaction (finalizeRun), as the run details' cache relies on too; the newest result id is
 * added (one probe) for writers that insert results alone, such as the tests' factories. A table
 * added to the matrix's queries is added here.
 */
const MATRIX_TABLES = [
  "runs",
  "requirements",
  "requirement_bugs",
  "requirement_imports",
  "tags",
  "tagged_tests",
  "requirement_test_links",
  "test_aliases",
] as const;

/**
 * The version of the matrix's data: per table, its row count and the sum of its rows' xmin.
 * Any committed insert, update or delete changes it (a new row version carries an xid newer
 * than every row it replaces), so an answer built while it held still is current while it is
 * the same. One sequential pass over small tables; results itself is never read.
 */
export async function matrixDataVersion(db: Db): Promise<string> {
  const parts = MATRIX_TABLES.map(
    (table) =>
      sql<string>`(SELECT count(*) || ':' || coalesce(sum(xmin::text::bigint), 0) FROM ${sql.table(table)})`,
  );
  const { rows } = await sql<{ version: string }>`
    SELECT concat_ws('/', ${sql.join(parts)}, (SELECT coalesce(max(id), 0) FROM results)) AS version
  `.execute(db.kysely);
  return rows[0]?.version ?? "";
}

/** A test's final results, newest first, with the run they belong to. */
export async function testHistory(db: Db, testId: number) {
  return db.kysely
    .selectFrom("results")
    .innerJoin("runs", "runs.id", "results.run_id")
    .select([
      "results.start_time",
      "results.status",
      "runs.test_run_key",
      "results.test_run_test_id",
    ])
    .where("results.test_id", "=", testId)
    .where("results.is_final", "=", true)
    .orderBy("results.start_time", (ob) => ob.desc().nullsLast())
    .orderBy("results.id", "desc")
    .limit(200)
    .execute();
}

/**
 * Sets a requirement's note and flag and records the edit with the values before it, in one
 * transaction (the row is locked so two edits cannot record the same "previous" values).
 */
export async function updateRequirement(
  db: Db,
  id: number,
  change: { note: string; noTestNeeded: boolean; editedBy: string },
): Promise<RequirementRow | undefined> {
  return db.kysely.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom("requirements")
      .select(["id", "rms", "note", "no_test_needed"])
      .where("id", "=", id)
      .where("archived_at", "is", null)
      .forUpdate()
      .executeTakeFirst();
    if (!before) return undefined;
    const now = new Date();
    const after = await trx
      .updateTable("requirements")
      .set({
        note: change.note,
        no_test_needed: change.noTestNeeded,
        updated_by: change.editedBy,
        updated_at: now,
      })
      .where("id", "=", id)
      .returning(["id", "rms", "summary", "epic", "type", "note", "no_test_needed"])
      .executeTakeFirstOrThrow();
    await trx
      .insertInto("requirement_edits")
      .values({
        requirement_id: id,
        rms: before.rms,
        previous_note: before.note,
        previous_no_test_needed: before.no_test_needed,
        note: change.note,
        no_test_needed: change.noTestNeeded,
        edited_by: change.editedBy,
        edited_at: now,
      })
      .execute();
    return toRequirement(after);
  });
}

export async function listEdits(db: Db, requirementId: number) {
  const rows = await db.kysely
    .selectFrom("requirement_edits")
    .select([
      "previous_note",
      "previous_no_test_needed",
      "note",
      "no_test_needed",
      "edited_by",
      "edited_at",
    ])
    .where("requirement_id", "=", requirementId)
    .orderBy("id", "desc")
    .execute();
  return rows;
}
