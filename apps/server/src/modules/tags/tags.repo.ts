import { sql, type Kysely, type Transaction } from "kysely";
import type { Db } from "../../db/pool.js";
import type { Database } from "../../db/schema.js";

/**
 * Dynamic tags and the tests in them: the tags and tagged_tests tables (migration 0002), and
 * deleted tags kept with their tests (deleted_tags, 0227).
 */

type Executor = Kysely<Database> | Transaction<Database>;

export interface TagRow {
  id: number;
  name: string;
}

export interface LinkRow {
  id: number;
  tag_id: number;
  test_id: number;
  test_name: string;
}

const toLink = (row: { id: number; tag_id: number; test_id: number; test_name: string }) => ({
  id: Number(row.id),
  tag_id: Number(row.tag_id),
  test_id: Number(row.test_id),
  test_name: row.test_name,
});

/**
 * Every tag with its tests, ordered by tag name then test id; a tag without tests comes once
 * with null link columns. Names are compared byte-wise ("C") so the order does not depend on the
 * server's locale.
 */
export async function listTagsWithTests(db: Db) {
  const rows = await db.kysely
    .selectFrom("tags")
    .leftJoin("tagged_tests", "tagged_tests.tag_id", "tags.id")
    .select([
      "tags.id as tag_id",
      "tags.name",
      "tagged_tests.id as link_id",
      "tagged_tests.test_id",
      "tagged_tests.test_name",
    ])
    .orderBy(sql`tags.name collate "C"`)
    .orderBy("tagged_tests.test_id")
    .execute();
  return rows.map((row) => ({
    tag_id: Number(row.tag_id),
    name: row.name,
    link_id: row.link_id === null ? null : Number(row.link_id),
    test_id: row.test_id === null ? null : Number(row.test_id),
    test_name: row.test_name ?? "",
  }));
}

/** The catalogue title of a test, or undefined when no such test exists. */
export async function findTestTitle(db: Executor, testId: number): Promise<string | undefined> {
  const row = await db
    .selectFrom("tests")
    .select("title")
    .where("id", "=", testId)
    .executeTakeFirst();
  return row?.title;
}

/** Whether a tag named exactly `name` is stored (one made before the tag rule stays usable). */
export async function tagNamed(db: Executor, name: string): Promise<boolean> {
  const row = await db.selectFrom("tags").select("id").where("name", "=", name).executeTakeFirst();
  return row !== undefined;
}

/**
 * The tag named `name`, made if it does not exist yet. The row stays locked until the
 * transaction ends, so a concurrent delete cannot remove it before a test is attached.
 */
export async function upsertTag(trx: Transaction<Database>, name: string) {
  const row = await trx
    .insertInto("tags")
    .values({ name })
    // DO UPDATE (not DO NOTHING) so the existing row is returned and locked; xmax = 0 marks a
    // row this statement inserted.
    .onConflict((oc) => oc.column("name").doUpdateSet({ name: (eb) => eb.ref("excluded.name") }))
    .returning(["id", "name", sql<boolean>`xmax = 0`.as("created")])
    .executeTakeFirstOrThrow();
  return { id: Number(row.id), name: row.name, created: row.created };
}

/**
 * The tag with `id`, locked until the transaction ends: "share" keeps it from being deleted while
 * a test is attached; "update" is taken before deleting it.
 */
export async function findTagLocked(
  trx: Transaction<Database>,
  id: number,
  lock: "share" | "update",
): Promise<TagRow | undefined> {
  const query = trx.selectFrom("tags").select(["id", "name"]).where("id", "=", id);
  const row = await (lock === "share" ? query.forKeyShare() : query.forUpdate()).executeTakeFirst();
  return row && { id: Number(row.id), name: row.name };
}

/**
 * Puts a test in a tag. Returns the link and whether it was made now; an existing link is left
 * as it is (adding a tag already on a test is ignored).
 */
export async function attachTest(
  trx: Transaction<Database>,
  tagId: number,
  testId: number,
  testName: string,
): Promise<{ link: LinkRow; attached: boolean }> {
  const inserted = await trx
    .insertInto("tagged_tests")
    .values({ tag_id: tagId, test_id: testId, test_name: testName })
    .onConflict((oc) => oc.columns(["tag_id", "test_id"]).doNothing())
    .returning(["id", "tag_id", "test_id", "test_name"])
    .executeTakeFirst();
  if (inserted) return { link: toLink(inserted), attached: true };
  const existing = await trx
    .selectFrom("tagged_tests")
    .select(["id", "tag_id", "test_id", "test_name"])
    .where("tag_id", "=", tagId)
    .where("test_id", "=", testId)
    .executeTakeFirstOrThrow();
  return { link: toLink(existing), attached: false };
}

/**
 * Moves a tag and its links to deleted_tags (who deleted it, when, which tests it held), then
 * deletes them from the live tables; returns how many links went.
 */
export async function deleteTag(
  trx: Transaction<Database>,
  id: number,
  by: string,
): Promise<number> {
  await sql`
    INSERT INTO deleted_tags (id, name, created_at, deleted_by, tests)
    SELECT t.id, t.name, t.created_at, ${by},
      COALESCE(
        jsonb_agg(jsonb_build_object('testId', l.test_id, 'testName', l.test_name)
          ORDER BY l.test_id) FILTER (WHERE l.id IS NOT NULL),
        '[]'::jsonb)
    FROM tags t LEFT JOIN tagged_tests l ON l.tag_id = t.id
    WHERE t.id = ${id}
    GROUP BY t.id`.execute(trx);
  const links = await trx.deleteFrom("tagged_tests").where("tag_id", "=", id).executeTakeFirst();
  await trx.deleteFrom("tags").where("id", "=", id).execute();
  return Number(links.numDeletedRows);
}

/**
 * Takes a deleted tag out of deleted_tags, for its restore in the same transaction: a
 * concurrent restore of it waits, then finds none.
 */
export async function takeDeletedTag(trx: Transaction<Database>, id: number) {
  const row = await trx
    .deleteFrom("deleted_tags")
    .where("id", "=", id)
    .returning(["name", "tests"])
    .executeTakeFirst();
  return row && { name: row.name, tests: row.tests };
}

/** Puts `tests` in the tag (those already in it stay as they are); returns how many went in. */
export async function attachTests(
  trx: Transaction<Database>,
  tagId: number,
  tests: readonly { testId: number; testName: string }[],
): Promise<number> {
  if (tests.length === 0) return 0;
  const result = await sql`
    INSERT INTO tagged_tests (tag_id, test_id, test_name)
    SELECT ${tagId}, x."testId", x."testName"
    FROM jsonb_to_recordset(${JSON.stringify(tests)}::jsonb) AS x("testId" bigint, "testName" text)
    ON CONFLICT (tag_id, test_id) DO NOTHING`.execute(trx);
  return Number(result.numAffectedRows ?? 0);
}

/** Deletes one test-in-tag link; returns it, or undefined when there was none. */
export async function deleteLink(db: Db, id: number): Promise<LinkRow | undefined> {
  const row = await db.kysely
    .deleteFrom("tagged_tests")
    .where("id", "=", id)
    .returning(["id", "tag_id", "test_id", "test_name"])
    .executeTakeFirst();
  return row && toLink(row);
}
