import { ANALYSIS_DAYS, DEFAULT_DEFECT, type Defect, type DefectBody } from "@assay/core";
import { withTransaction, type Db } from "../../db/pool.js";
import { AppError } from "../../errors.js";
import { runOfResult } from "../runs/failures.service.js";
import * as decisions from "./decisions.repo.js";
import * as detail from "./group-detail.repo.js";
import { untilTriaged, type TriageDeps } from "./pending.service.js";
import { requireTriagedRun, toDefect } from "./triage.service.js";

/** Defect decisions (issue 34): a person's on results, a group in a run or over 90 days; reads. */

const DAY_MS = 86_400_000;

/** One person's decision on `resultIds`; answers how many and the first one's defect. */
export async function record(db: Db, resultIds: number[], body: DefectBody, who: string) {
  const bugs = [...new Set(body.bugs.map((bug) => bug.toUpperCase()))];
  return withTransaction(db, async (client) => {
    const updated = await decisions.recordDecisions(client, resultIds, {
      ...body,
      bugs,
      decidedBy: who,
    });
    const current = await decisions.currentDecisionsOf(client, resultIds.slice(0, 1));
    return { updated, defect: toDefect(current.get(resultIds[0] ?? 0)) };
  });
}

/** PUT /v1/results/{id}/defect: a person's decision on one failed result. */
export async function setResultDefect(
  deps: TriageDeps,
  resultId: number,
  body: DefectBody,
  who: string,
) {
  const { db } = deps;
  const runId = await runOfResult(db, resultId);
  if (runId !== null) await untilTriaged(deps, runId);
  const found = await detail.findFingerprintedResult(db.pool, resultId);
  if (!found) {
    throw new AppError(
      404,
      "failure_not_found",
      `Result ${resultId} is not a failed result: only failures take a defect type.`,
    );
  }
  return record(db, [resultId], body, who);
}

/** PUT /v1/runs/{key}/failure-groups/{id}/defect: one decision for all the group's results in the run. */
export async function setRunGroupDefect(
  deps: TriageDeps,
  key: string,
  groupId: number,
  body: DefectBody,
  who: string,
) {
  const { db } = deps;
  const run = await requireTriagedRun(deps, key);
  const ids = run ? await detail.groupResultsInRun(db.pool, run.run_id, groupId) : [];
  if (ids.length === 0) {
    throw new AppError(
      404,
      "group_not_in_run",
      `Failure group ${groupId} has no failures in run ${key}.`,
    );
  }
  return record(db, ids, body, who);
}

/** PUT /v1/failure-groups/{id}/defect: one decision for the group's results of the last 90 days. */
export async function setGroupDefect(
  db: Db,
  groupId: number,
  body: DefectBody,
  who: string,
  now = new Date(),
) {
  const ids = await detail.groupResultsSince(
    db.pool,
    groupId,
    new Date(now.getTime() - ANALYSIS_DAYS * DAY_MS),
  );
  if (ids.length === 0) {
    throw new AppError(
      404,
      "group_not_found",
      `Failure group ${groupId} has no failures in the last ${ANALYSIS_DAYS} days.`,
    );
  }
  return record(db, ids, body, who);
}

/** Current decisions of results (the run view and test detail carry them). */
export async function defectsOf(
  db: Db,
  resultIds: readonly number[],
): Promise<Map<number, Defect>> {
  const rows = await decisions.currentDecisionsOf(db.pool, resultIds);
  return new Map([...rows].map(([id, row]) => [id, toDefect(row)]));
}

/** A result's defect: its current decision, to investigate when it failed without one, else null. */
export async function resultDefect(db: Db, resultId: number): Promise<Defect | null> {
  if (!(await detail.findFingerprintedResult(db.pool, resultId))) return null;
  return (await defectsOf(db, [resultId])).get(resultId) ?? DEFAULT_DEFECT;
}
