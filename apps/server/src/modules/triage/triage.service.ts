import {
  ANALYSIS_DAYS,
  DEFAULT_DEFECT,
  evaluateGate,
  FAILURES_DEFAULT_DAYS,
  type Defect,
  type DefectBody,
  type Evidence,
  type FailureGroupDetail,
  type FailureGroupList,
  type FailureGroupsQuery,
  type GateAnswer,
  type GateQuery,
  type RunFailureGroup,
} from "@assay/core";
import { withTransaction, type Db } from "../../db/pool.js";
import { AppError } from "../../errors.js";
import { failureTexts, runState } from "../runs/failures.service.js";
import * as decisions from "./decisions.repo.js";
import * as detail from "./group-detail.repo.js";
import * as groups from "./groups.repo.js";

const DAY_MS = 86_400_000;
const TREND_DAYS = 30;

const iso = (date: Date) => date.toISOString();

export function toDefect(row: decisions.DecisionRow | undefined): Defect {
  if (!row) return DEFAULT_DEFECT;
  return {
    type: row.type,
    auto: row.auto,
    comment: row.comment,
    bugs: row.bugs,
    decidedBy: row.decided_by,
    decidedAt: iso(row.decided_at),
    evidence: (row.evidence as Evidence | null) ?? null,
  };
}

export async function requireTriagedRun(db: Db, key: string): Promise<groups.TriagedRun | null> {
  const run = await groups.findTriagedRun(db.pool, key);
  if (run) return run;
  const stored = await runState(db, key);
  if (!stored) {
    throw new AppError(
      404,
      "run_not_found",
      `No run with key ${key}: check the key printed by the upload.`,
    );
  }
  // A run without results yet (an open live run, a load run): no failures.
  return null;
}

/** GET /v1/runs/{key}/failure-groups: the run's failures by cause. */
export async function runFailureGroups(db: Db, key: string): Promise<RunFailureGroup[]> {
  const run = await requireTriagedRun(db, key);
  if (!run) return [];
  const rows = await groups.runGroups(db.pool, run);
  const newest = await decisions.decisionsById(
    db.pool,
    rows.flatMap((row) => (row.newest_defect === null ? [] : [row.newest_defect])),
  );
  return rows.map((row) => ({
    id: row.id,
    fingerprint: row.fingerprint,
    errorType: row.error_type,
    message: row.message,
    frame: row.frame,
    count: row.count,
    toInvestigate: row.to_investigate,
    tests: [...row.tests].sort((a, b) => a - b),
    isNew: row.first_run_id === run.run_id,
    isRegression: row.is_regression,
    firstSeen: { runKey: row.first_run_key, at: iso(row.first_seen_at) },
    defect: toDefect(row.newest_defect === null ? undefined : newest.get(row.newest_defect)),
  }));
}

function trendOf(
  days: { day: string; count: number }[],
  now: Date,
): { day: string; count: number }[] {
  const counts = new Map(days.map((point) => [point.day, point.count]));
  const out: { day: string; count: number }[] = [];
  for (let i = TREND_DAYS - 1; i >= 0; i--) {
    const day = new Date(now.getTime() - i * DAY_MS).toISOString().slice(0, 10);
    out.push({ day, count: counts.get(day) ?? 0 });
  }
  return out;
}

/** GET /v1/failure-groups: groups seen since `since` (7 days by default), most occurrences first. */
export async function failureGroups(
  db: Db,
  query: FailureGroupsQuery,
  now = new Date(),
): Promise<FailureGroupList> {
  const since = query.since
    ? new Date(query.since.length === 10 ? `${query.since}T00:00:00Z` : query.since)
    : new Date(now.getTime() - FAILURES_DEFAULT_DAYS * DAY_MS);
  if (Number.isNaN(since.getTime())) {
    throw new AppError(400, "invalid_since", "since must be a real UTC date, e.g. 2026-11-21.");
  }
  const rows = await groups.groupsOverPeriod(db.pool, { ...query, since }, 200);
  const trendSince = new Date(now.getTime() - (TREND_DAYS - 1) * DAY_MS);
  trendSince.setUTCHours(0, 0, 0, 0);
  const daily = await groups.dailyCounts(
    db.pool,
    rows.map((row) => row.id),
    trendSince,
  );
  return {
    since: iso(since),
    groups: rows.map((row) => ({
      id: row.id,
      fingerprint: row.fingerprint,
      errorType: row.error_type,
      message: row.message,
      count: row.count,
      runs: row.runs,
      tests: row.tests,
      toInvestigate: row.to_investigate,
      firstSeen: { runKey: row.first_run_key, at: iso(row.first_seen_at) },
      lastSeenAt: iso(row.last_seen_at),
      trend: trendOf(
        daily.filter((point) => point.group_id === row.id),
        now,
      ),
    })),
  };
}

/**
 * A group's sample: one occurrence as the reporter wrote it. Ingest no longer copies it into
 * the group (a new group's texts were most of triage's ingest cost: docs/performance.md,
 * "Triage"); it is read from the first occurrence, or the newest once retention removed that
 * one. Groups made before keep their stored copy.
 */
async function sampleOf(
  db: Db,
  group: detail.GroupRow,
): Promise<{ message: string | null; stack: string | null }> {
  if (group.sample_message !== null || group.sample_stack !== null) {
    return { message: group.sample_message, stack: group.sample_stack };
  }
  const ids = [group.first_result_id, group.newest_result_id].filter(
    (id): id is number => id !== null,
  );
  const texts = await failureTexts(db, ids);
  for (const id of ids) {
    const found = texts.get(id);
    if (found) return found;
  }
  return { message: null, stack: null };
}

/** GET /v1/failure-groups/{id}: one group with its tests, runs, trend and decisions. */
export async function failureGroup(
  db: Db,
  id: number,
  now = new Date(),
): Promise<FailureGroupDetail> {
  const group = await detail.findGroup(db.pool, id);
  if (!group) throw new AppError(404, "group_not_found", `No failure group ${id}.`);
  const { tests, runs, defects } = await detail.groupTestsAndRuns(db.pool, id);
  const trendSince = new Date(now.getTime() - (TREND_DAYS - 1) * DAY_MS);
  trendSince.setUTCHours(0, 0, 0, 0);
  const daily = await groups.dailyCounts(db.pool, [id], trendSince);
  const sample = await sampleOf(db, group);
  return {
    id: group.id,
    fingerprint: group.fingerprint,
    errorType: group.error_type,
    message: group.message,
    frame: group.frame,
    sampleMessage: sample.message,
    sampleStack: sample.stack,
    firstSeen: { runKey: group.first_run_key, at: iso(group.first_seen_at) },
    lastSeenAt: iso(group.last_seen_at),
    count: group.count,
    trend: trendOf(daily, now),
    tests: tests.map((t) => ({
      testId: t.test_id,
      count: t.count,
      lastSeenAt: iso(t.last_seen_at),
    })),
    runs: runs.map((r) => ({ runKey: r.run_key, family: r.family, at: iso(r.at), count: r.count })),
    defects: defects.map((d) => ({
      type: (d.type ?? "to_investigate") as Defect["type"],
      count: d.count,
    })),
  };
}

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
export async function setResultDefect(db: Db, resultId: number, body: DefectBody, who: string) {
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
  db: Db,
  key: string,
  groupId: number,
  body: DefectBody,
  who: string,
) {
  const run = await requireTriagedRun(db, key);
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

/** GET /v1/runs/{key}/gate: whether the run passes the limits given. */
export async function gate(db: Db, key: string, limits: GateQuery): Promise<GateAnswer> {
  const stored = await runState(db, key);
  if (!stored) {
    throw new AppError(
      404,
      "run_not_found",
      `No run with key ${key}: check the key printed by the upload.`,
    );
  }
  const counts = await detail.gateCounts(db.pool, stored.id);
  const figures = {
    failed: counts.failed,
    newFailures: counts.new_failures,
    toInvestigate: counts.to_investigate,
  };
  return { ...evaluateGate(figures, limits), counts: figures, runState: stored.state };
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

/**
 * A test's failure groups in some runs (a flaky test's evidence, issue 35): each group with the
 * runs it failed in.
 */
export async function testFailureGroups(
  db: Db,
  testId: number,
  runIds: readonly number[],
): Promise<{ id: number; message: string; runIds: number[] }[]> {
  const rows = await detail.testGroupsInRuns(db.pool, testId, runIds);
  return rows.map((row) => ({ id: row.id, message: row.message, runIds: row.run_ids }));
}
