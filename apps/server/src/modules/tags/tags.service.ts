import {
  normalizeTag,
  UNSTABLE_TAG,
  type AttachTagBody,
  type CreateTagBody,
  type DeletedTag,
  type DeletedTaggedTest,
  type RestoredTag,
  type TagEntry,
  type TagLink,
  type TagList,
} from "@assay/core";
import type { Db } from "../../db/pool.js";
import { AppError, badRequest, notFound } from "../../errors.js";
import * as repo from "./tags.repo.js";

/**
 * Dynamic tag rules (spec section 5 "Tags"): names are lower-cased; an unknown tag is created
 * and a known one attached; adding a tag a test already has changes nothing. The '@unstable' tag
 * drives the unstable status, so it cannot be deleted.
 */

const noSuchTag = (id: number) => notFound(`No dynamic tag with id ${id}.`);
const noSuchTest = (id: number) =>
  notFound(`No test with id ${id}: tags are put on tests that have results in Assay.`);

/** Every tag with its tests, as the by-tag map and the selection list, both in name order. */
export async function listTags(db: Db): Promise<TagList> {
  const rows = await repo.listTagsWithTests(db);
  const byTag: Record<string, TagEntry> = {};
  const options: TagList["options"] = [];
  for (const row of rows) {
    let entry = byTag[row.name];
    if (!entry) {
      entry = { id: row.tag_id, tests: [], test_ids: [] };
      byTag[row.name] = entry;
      options.push({ text: row.name, value: row.tag_id });
    }
    if (row.link_id === null || row.test_id === null) continue;
    entry.tests.push({ id: row.test_id, name: row.test_name, taggedTestId: row.link_id });
    entry.test_ids.push(row.test_id);
  }
  return { byTag, options };
}

/** The name to store with a link: the one the client sent, or the test's catalogue title. */
function linkName(given: string | undefined, title: string): string {
  const trimmed = given?.trim() ?? "";
  return trimmed === "" ? title : trimmed;
}

/**
 * Puts the tag `name` on a test (POST /v1/dtag): the tag is made if it is unknown. When the test
 * already has the tag nothing changes and `alreadyTagged` says so.
 */
export async function addTagToTest(db: Db, body: CreateTagBody): Promise<TagLink> {
  const stored = body.name.trim().toLowerCase();
  const known = (await repo.tagNamed(db.kysely, stored)) ? [stored] : [];
  const check = normalizeTag(body.name, known);
  if (!check.ok) throw badRequest(check.message);
  return db.kysely.transaction().execute(async (trx) => {
    const title = await repo.findTestTitle(trx, body.testId);
    if (title === undefined) throw noSuchTest(body.testId);
    const tag = await repo.upsertTag(trx, check.name);
    const { link, attached } = await repo.attachTest(
      trx,
      tag.id,
      body.testId,
      linkName(body.testName, title),
    );
    return {
      tag: { id: tag.id, name: tag.name },
      test: { id: link.test_id, name: link.test_name, taggedTestId: link.id },
      tagCreated: tag.created,
      alreadyTagged: !attached,
    };
  });
}

/** Puts an existing tag on a test (PUT /v1/dtag/{id}/test/{testId}); a repeat changes nothing. */
export async function attachTagToTest(
  db: Db,
  tagId: number,
  testId: number,
  body: AttachTagBody,
): Promise<TagLink> {
  return db.kysely.transaction().execute(async (trx) => {
    const tag = await repo.findTagLocked(trx, tagId, "share");
    if (!tag) throw noSuchTag(tagId);
    const title = await repo.findTestTitle(trx, testId);
    if (title === undefined) throw noSuchTest(testId);
    const { link, attached } = await repo.attachTest(
      trx,
      tag.id,
      testId,
      linkName(body.testName, title),
    );
    return {
      tag,
      test: { id: link.test_id, name: link.test_name, taggedTestId: link.id },
      tagCreated: false,
      alreadyTagged: !attached,
    };
  });
}

/**
 * Deletes a tag and its links (DELETE /v1/dtag/{id}), kept in deleted_tags for restoreTag;
 * '@unstable' is refused with 409.
 */
export async function deleteTag(db: Db, tagId: number, by: string): Promise<DeletedTag> {
  return db.kysely.transaction().execute(async (trx) => {
    const tag = await repo.findTagLocked(trx, tagId, "update");
    if (!tag) throw noSuchTag(tagId);
    if (tag.name === UNSTABLE_TAG) {
      throw new AppError(
        409,
        "tag_protected",
        `The '${UNSTABLE_TAG}' tag cannot be deleted: it marks tests as unstable. Remove single tests from it instead.`,
      );
    }
    const testsRemoved = await repo.deleteTag(trx, tag.id, by);
    return { ...tag, testsRemoved };
  });
}

/**
 * Puts a deleted tag back with the tests it held (POST /v1/dtag/{id}/restore, the screen's
 * Undo). A tag made with its name meanwhile gets those tests too, so nothing is refused.
 */
export async function restoreTag(db: Db, deletedId: number): Promise<RestoredTag> {
  return db.kysely.transaction().execute(async (trx) => {
    const deleted = await repo.takeDeletedTag(trx, deletedId);
    if (!deleted) {
      throw notFound(`No deleted tag with id ${deletedId}: it may have been restored already.`);
    }
    const tag = await repo.upsertTag(trx, deleted.name);
    const testsRestored = await repo.attachTests(trx, tag.id, deleted.tests);
    return { id: tag.id, name: tag.name, testsRestored };
  });
}

/** Takes one test out of one tag (DELETE /v1/tagged_test/{id}). */
export async function removeTaggedTest(db: Db, linkId: number): Promise<DeletedTaggedTest> {
  const link = await repo.deleteLink(db, linkId);
  if (!link) throw notFound(`No tagged test with id ${linkId}: it may have been removed already.`);
  return { id: link.id, tagId: link.tag_id, testId: link.test_id };
}
