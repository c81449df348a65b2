import { sql } from "kysely";
import type { Db } from "../../db/pool.js";
import { suitePathOf } from "../../db/results-sql.js";
import type { CoverageRow } from "./traceability.repo.js";

/**
 * Tests linked to requirements on the matrix screen (requirement_test_links, migration 0043):
 * a link is live until removed; a removed one keeps who removed it and when.
 */

export interface LinkRow {
  rms: string;
  test_id: number;
  title: string;
  linked_by: string;
  linked_at: Date;
  removed_by: string | null;
  removed_at: Date | null;
}

export interface LinkedTestRow extends CoverageRow {
  linked_by: string;
  linked_at: Date;
}

const toLink = (row: LinkRow): LinkRow => ({ ...row, test_id: Number(row.test_id) });

/** The requirement's key as links store it (upper-cased), or undefined when there is none. */
export async function requirementKey(db: Db, id: number): Promise<string | undefined> {
  const row = await db.kysely
    .selectFrom("requirements")
    .select(sql<string>`upper(rms)`.as("rms"))
    .where("id", "=", id)
    .where("archived_at", "is", null)
    .executeTakeFirst();
  return row?.rms;
}

export async function testTitle(db: Db, testId: number): Promise<string | undefined> {
  const row = await db.kysely
    .selectFrom("tests")
    .select("title")
    .where("id", "=", testId)
    .executeTakeFirst();
  return row?.title;
}

/** Adds a live link; undefined when one is already live (the partial unique index says so). */
export async function insertLink(
  db: Db,
  link: { rms: string; testId: number; linkedBy: string },
): Promise<{ linked_at: Date } | undefined> {
  return db.kysely
    .insertInto("requirement_test_links")
    .values({ rms: link.rms, test_id: link.testId, linked_by: link.linkedBy })
    .onConflict((oc) => oc.columns(["rms", "test_id"]).where("removed_at", "is", null).doNothing())
    .returning("linked_at")
    .executeTakeFirst();
}

/** Marks the live link removed, keeping the row; undefined when no link is live. */
export async function removeLink(
  db: Db,
  link: { rms: string; testId: number; removedBy: string },
): Promise<{ linked_by: string; linked_at: Date; removed_at: Date } | undefined> {
  const row = await db.kysely
    .updateTable("requirement_test_links")
    .set({ removed_by: link.removedBy, removed_at: sql<Date>`now()` })
    .where("rms", "=", link.rms)
    .where("test_id", "=", link.testId)
    .where("removed_at", "is", null)
    .returning(["linked_by", "linked_at", "removed_at"])
    .executeTakeFirst();
  return row && { ...row, removed_at: row.removed_at as Date };
}

/** A requirement's links, live and removed, newest first. */
export async function listLinks(db: Db, rms: string): Promise<LinkRow[]> {
  const rows = await db.kysely
    .selectFrom("requirement_test_links as l")
    .innerJoin("tests as t", "t.id", "l.test_id")
    .select([
      "l.rms",
      "l.test_id",
      "t.title",
      "l.linked_by",
      "l.linked_at",
      "l.removed_by",
      "l.removed_at",
    ])
    .where("l.rms", "=", rms)
    .orderBy("l.id", "desc")
    .execute();
  return rows.map(toLink);
}

/**
 * Every live link of a current requirement, with the test's latest passed or failed final
 * result (the same rule and index probe as the tag coverage: results_latest_final_idx). A link
 * to a renamed test's old name shows the test it is now (issue 35).
 */
export async function listLinkedTests(db: Db): Promise<LinkedTestRow[]> {
  const { rows } = await sql<LinkedTestRow>`
    SELECT req.id AS requirement_id, t.id AS test_id, t.title, t.file, ls.status,
           ls.error_message, coalesce(ls.suite_path, '{}') AS suite_path, l.linked_by, l.linked_at
    FROM requirement_test_links l
    JOIN requirements req ON upper(req.rms) = l.rms AND req.archived_at IS NULL
    LEFT JOIN test_alias_canonical ac ON ac.test_id = l.test_id
    JOIN tests t ON t.id = coalesce(ac.canonical_id, l.test_id)
    LEFT JOIN LATERAL (
      SELECT r.status, r.error_message, ${sql.raw(suitePathOf("r"))} AS suite_path
      FROM results r
      WHERE r.test_id = t.id AND r.is_final AND r.status IN ('passed', 'failed')
      ORDER BY r.start_time DESC NULLS LAST, r.id DESC
      LIMIT 1
    ) ls ON true
    WHERE l.removed_at IS NULL
    ORDER BY req.id, t.id
  `.execute(db.kysely);
  return rows.map((row) => ({
    ...row,
    requirement_id: Number(row.requirement_id),
    test_id: Number(row.test_id),
  }));
}
