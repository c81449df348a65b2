import type { RmsTestLink, TraceabilityRow } from "@assay/core";
import type { Db } from "../../db/pool.js";
import { AppError, notFound } from "../../errors.js";
import * as repo from "./traceability-links.repo.js";

/**
 * Links edited on the matrix screen: a signed-in user links a test to a requirement or removes
 * the link; both are recorded with who and when, and a removed link stays for auditors.
 */

// The key of a broken row of an import (spec: no Action where rms is ERROR).
const BROKEN_ROW = "ERROR";

async function keyOf(db: Db, id: number): Promise<string> {
  const rms = await repo.requirementKey(db, id);
  if (rms === undefined)
    throw notFound(`No requirement with id ${id}; reload the Traceability Matrix.`);
  return rms;
}

const toLink = (row: repo.LinkRow): RmsTestLink => ({
  rms: row.rms,
  testId: row.test_id,
  testName: row.title,
  linkedBy: row.linked_by,
  linkedAt: row.linked_at.toISOString(),
  removedBy: row.removed_by,
  removedAt: row.removed_at ? row.removed_at.toISOString() : null,
});

/** Links test `testId` to requirement `id`; 404 for either unknown, 409 when already linked. */
export async function linkTest(
  db: Db,
  id: number,
  testId: number,
  linkedBy: string,
): Promise<RmsTestLink> {
  const rms = await keyOf(db, id);
  if (rms === BROKEN_ROW) {
    throw new AppError(
      400,
      "broken_requirement",
      "This row stands for a broken row of the requirements import: fix the file and import it again instead of linking tests to it.",
    );
  }
  const title = await repo.testTitle(db, testId);
  if (title === undefined) {
    throw notFound(
      `No test TC${testId}: check the id (Test History finds a test by its id) and link it again.`,
    );
  }
  const linked = await repo.insertLink(db, { rms, testId, linkedBy });
  if (!linked)
    throw new AppError(409, "already_linked", `TC${testId} is already linked to ${rms}.`);
  return toLink({
    rms,
    test_id: testId,
    title,
    linked_by: linkedBy,
    linked_at: linked.linked_at,
    removed_by: null,
    removed_at: null,
  });
}

/** Removes the live link (kept as history); 404 when the test is not linked on the screen. */
export async function unlinkTest(
  db: Db,
  id: number,
  testId: number,
  removedBy: string,
): Promise<RmsTestLink> {
  const rms = await keyOf(db, id);
  const removed = await repo.removeLink(db, { rms, testId, removedBy });
  if (!removed) {
    throw notFound(
      `TC${testId} is not linked to ${rms} on the screen. A test that covers it through a tag keeps covering it until the tag is removed from its reports or dynamic tags.`,
    );
  }
  return toLink({
    rms,
    test_id: testId,
    title: (await repo.testTitle(db, testId)) ?? "",
    linked_by: removed.linked_by,
    linked_at: removed.linked_at,
    removed_by: removedBy,
    removed_at: removed.removed_at,
  });
}

/** Every link of a requirement made on the screen, live and removed, newest first. */
export async function testLinks(db: Db, id: number): Promise<RmsTestLink[]> {
  return (await repo.listLinks(db, await keyOf(db, id))).map(toLink);
}

/**
 * Adds the live screen links to the matrix rows: a test already covering the row through a tag
 * gets the link noted; any other joins the row's tests, which stay in test id order.
 */
export function addScreenLinks(
  rows: ReadonlyMap<number, TraceabilityRow>,
  links: readonly repo.LinkedTestRow[],
): void {
  const touched = new Set<TraceabilityRow>();
  for (const link of links) {
    const row = rows.get(link.requirement_id);
    if (!row) continue;
    const screenLink = { linkedBy: link.linked_by, linkedAt: link.linked_at.toISOString() };
    const tagged = row.testRuns.find((run) => run.testId === link.test_id);
    if (tagged) {
      tagged.link = screenLink;
      continue;
    }
    row.testRuns.push({
      testId: link.test_id,
      name: link.title,
      filePath: link.file,
      suitePath: link.suite_path,
      status: link.status,
      errorMessage: link.error_message,
      link: screenLink,
    });
    touched.add(row);
  }
  for (const row of touched) row.testRuns.sort((a, b) => a.testId - b.testId);
}
