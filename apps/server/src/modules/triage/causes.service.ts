import type { DefectBody, DefectType, ResultCause } from "@assay/core";
import type { Db } from "../../db/pool.js";
import { AppError } from "../../errors.js";
import * as causes from "./causes.repo.js";
import { untilTriaged, type TriageDeps } from "./pending.service.js";
import { record } from "./defects.service.js";
import { requireTriagedRun } from "./triage.service.js";

/** GET /v1/runs/{key}/failure-causes?ids=: the group and type of a page's failed results. */
export async function resultCauses(
  deps: TriageDeps,
  key: string,
  resultIds: readonly number[],
): Promise<ResultCause[]> {
  const { db } = deps;
  const run = await requireTriagedRun(deps, key);
  if (!run) return [];
  const rows = await causes.causesOfResults(db.pool, resultIds);
  return rows.map((row) => ({
    resultId: row.result_id,
    groupId: row.group_id,
    type: row.type,
    auto: row.auto,
    comment: row.comment,
    bugs: row.bugs,
  }));
}

/**
 * The results of a run the dialogs' cause filters keep (a failure group, a defect type), for the
 * run view: runs filters by these ids and never reads triage's tables.
 */
export async function runResultsOfCause(
  db: Db,
  runId: number,
  filter: { groupId?: number; type?: DefectType },
): Promise<ReadonlySet<number>> {
  return new Set(await causes.runResultIdsWhere(db.pool, runId, filter));
}

/** PUT /v1/runs/{key}/defect: one decision for the run's failures of these tests (Failed Summary). */
export async function setTestsDefect(
  deps: TriageDeps,
  key: string,
  body: DefectBody & { tests: number[] },
  who: string,
) {
  const { db } = deps;
  const run = await requireTriagedRun(deps, key);
  const ids = run ? await causes.runResultIdsOfTests(db.pool, run.run_id, body.tests) : [];
  if (ids.length === 0) {
    throw new AppError(
      404,
      "no_failures",
      `None of these ${body.tests.length} tests failed in run ${key}: only failures take a defect type.`,
    );
  }
  const { type, comment, bugs } = body;
  return record(db, ids, { type, comment, bugs }, who);
}

/**
 * The run's failure groups first seen in it, most results first (notify's "on new failures";
 * flaky and others may call it too), once its triage is done. Empty for a run without failures.
 */
export async function newGroupsOfRun(
  deps: TriageDeps,
  runId: number,
): Promise<
  {
    id: number;
    fingerprint: string;
    errorType: string;
    message: string;
    count: number;
    tests: number[];
  }[]
> {
  await untilTriaged(deps, runId);
  const rows = await causes.newGroupsOfRun(deps.db.pool, runId);
  return rows.map((row) => ({
    id: row.id,
    fingerprint: row.fingerprint,
    errorType: row.error_type,
    message: row.message,
    count: row.count,
    tests: [...row.tests].sort((a, b) => a - b),
  }));
}

/** The group and current type of failed results, by result id (flaky reads a test's causes). */
export async function causesByResult(
  db: Db,
  resultIds: readonly number[],
): Promise<Map<number, { groupId: number; type: DefectType; auto: boolean }>> {
  const rows = await causes.causesOfResults(db.pool, resultIds);
  return new Map(
    rows.map((row) => [row.result_id, { groupId: row.group_id, type: row.type, auto: row.auto }]),
  );
}
