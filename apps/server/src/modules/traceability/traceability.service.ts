import type {
  LinkedBug,
  RmsDetail,
  RmsEdit,
  RmsImportBody,
  RmsImportResult,
  RmsImportRow,
  TestHistoryEntry,
  TraceabilityMatrix,
  TraceabilityRow,
} from "@assay/core";
import type { Db } from "../../db/pool.js";
import { notFound } from "../../errors.js";
import { readRequirementsFile } from "./requirements-file.js";
import { addScreenLinks } from "./traceability-links.service.js";
import { listLinkedTests } from "./traceability-links.repo.js";
import { matrixEtag, type MatrixAnswer, type MatrixCache } from "./traceability.cache.js";
import * as repo from "./traceability.repo.js";
import { storeRequirements } from "./requirements-import.repo.js";
import { planImport, uniqueBugs } from "./requirements-plan.js";

/**
 * The Traceability Matrix (spec sections 2-4): requirements from an imported file, the tests
 * whose tags name them with each test's latest status, and the audited note / no-automation edit.
 */

const flag = (value: boolean): 0 | 1 => (value ? 1 : 0);

const toDetail = (row: repo.RequirementRow): RmsDetail => ({
  id: row.id,
  rms: row.rms,
  summary: row.summary,
  epic: row.epic,
  type: row.type,
  note: row.note,
  noTestNeeded: flag(row.no_test_needed),
});

// Kept here for the modules that import it from traceability; it lives with Principal.
export { principalLabel } from "../auth/access.js";

/**
 * A requirements file: with dry_run, what importing it would do (nothing changed); without, it
 * is applied and the answer says what it did. Requirements no longer in the file are archived.
 */
export async function importRequirements(
  db: Db,
  body: RmsImportBody,
  importedBy: string,
): Promise<RmsImportResult> {
  const file = readRequirementsFile(body.fileName, body.content);
  const stored = await storeRequirements(
    db,
    { fileName: body.fileName, importedBy },
    file.requirements,
    file.releases,
    { dryRun: body.dry_run, plan: (current) => planImport(current, file.requirements) },
  );
  return {
    fileName: body.fileName,
    dryRun: body.dry_run,
    importedAt: stored.importedAt?.toISOString() ?? null,
    requirements: file.requirements.length,
    bugs: file.requirements.reduce((sum, row) => sum + uniqueBugs(row.bugs).length, 0),
    removed: stored.plan.archived.count,
    ...(file.releases !== null && { releases: file.releases.length }),
    preview: stored.plan,
  };
}

/**
 * Replaces the requirements with those a tracker sync read (integrations' sync job): the same
 * store as a file import, so notes, flags, links and their history are kept the same way, and
 * a requirement the tracker no longer answers is archived, back with them when it returns.
 */
export async function storeSyncedRequirements(
  db: Db,
  source: { kind: "jira" | "spira"; query: string },
  rows: RmsImportRow[],
) {
  const stored = await storeRequirements(
    db,
    { fileName: source.query, importedBy: `${source.kind} sync`, sourceKind: source.kind },
    rows,
    null,
    { dryRun: false, plan: (current) => planImport(current, rows) },
  );
  return {
    bugs: rows.reduce((sum, row) => sum + uniqueBugs(row.bugs).length, 0),
    removed: stored.plan.archived.count,
    importedAt: stored.importedAt ?? new Date(),
  };
}

export async function traceabilityMatrix(
  db: Db,
  rmsTagPattern: string,
): Promise<TraceabilityMatrix> {
  const [requirements, bugs, coverage, source, linked] = await Promise.all([
    repo.listRequirements(db),
    repo.listBugs(db),
    repo.listCoverage(db, rmsTagPattern),
    repo.latestImport(db),
    listLinkedTests(db),
  ]);
  const rows = new Map<number, TraceabilityRow>(
    requirements.map((row) => [row.id, { rmsDetail: toDetail(row), testRuns: [], linkedBugs: [] }]),
  );
  for (const bug of bugs) {
    const linked: LinkedBug = {
      key: bug.key,
      fields: { summary: bug.summary, status: { name: bug.status } },
    };
    rows.get(bug.requirement_id)?.linkedBugs.push(linked);
  }
  for (const test of coverage) {
    rows.get(test.requirement_id)?.testRuns.push({
      testId: test.test_id,
      name: test.title,
      filePath: test.file,
      suitePath: test.suite_path,
      status: test.status,
      errorMessage: test.error_message,
    });
  }
  addScreenLinks(rows, linked);
  return {
    source: source
      ? {
          kind: source.source_kind,
          fileName: source.file_name,
          importedAt: source.imported_at.toISOString(),
        }
      : null,
    rows: [...rows.values()],
  };
}

/**
 * The matrix as kept in `cache` while its data version holds, else built now. The version is
 * read again after building: an answer whose data changed meanwhile is sent without an ETag and
 * not kept (the next request builds the new one).
 */
export async function currentMatrix(
  db: Db,
  rmsTagPattern: string,
  cache: MatrixCache,
  options: { asked?: boolean } = {},
): Promise<MatrixAnswer> {
  const etag = matrixEtag(await repo.matrixDataVersion(db), rmsTagPattern);
  return cache.answer(
    etag,
    async () => {
      const matrix = await traceabilityMatrix(db, rmsTagPattern);
      const after = matrixEtag(await repo.matrixDataVersion(db), rmsTagPattern);
      return { etag: after === etag ? etag : undefined, body: JSON.stringify(matrix), matrix };
    },
    options,
  );
}

/**
 * The background refresher's step: while the matrix is watched, a changed data version is
 * built now (and compressed as browsers ask), so the next request finds it kept.
 */
export async function refreshWatchedMatrix(
  db: Db,
  rmsTagPattern: string,
  cache: MatrixCache,
): Promise<void> {
  if (!cache.watched()) return;
  const answer = await currentMatrix(db, rmsTagPattern, cache, { asked: false });
  if (answer.etag) await cache.encoded(answer, "br");
}

export async function testHistory(db: Db, testId: number): Promise<TestHistoryEntry[]> {
  const rows = await repo.testHistory(db, testId);
  return rows.map((row) => ({
    start_time: row.start_time ? row.start_time.toISOString() : null,
    status: row.status,
    test_run_key: row.test_run_key,
    test_run_test_id: row.test_run_test_id,
  }));
}

export async function updateRms(
  db: Db,
  id: number,
  change: { note: string; noTestNeeded: 0 | 1 },
  editedBy: string,
): Promise<RmsDetail> {
  const row = await repo.updateRequirement(db, id, {
    note: change.note,
    noTestNeeded: change.noTestNeeded === 1,
    editedBy,
  });
  if (!row) throw notFound(`No requirement with id ${id}; reload the Traceability Matrix.`);
  return toDetail(row);
}

export async function rmsEdits(db: Db, id: number): Promise<RmsEdit[]> {
  const rows = await repo.listEdits(db, id);
  return rows.map((row) => ({
    previousNote: row.previous_note,
    previousNoTestNeeded: flag(row.previous_no_test_needed),
    note: row.note,
    noTestNeeded: flag(row.no_test_needed),
    editedBy: row.edited_by,
    editedAt: row.edited_at.toISOString(),
  }));
}
