import {
  DEFAULT_DEFECT,
  evaluateGate,
  FAILURES_DEFAULT_DAYS,
  type Defect,
  type Evidence,
  type FailureGroupDetail,
  type FailureGroupList,
  type FailureGroupsQuery,
  type GateAnswer,
  type GateQuery,
  type RunFailureGroup,
} from "@assay/core";
import type { Db } from "../../db/pool.js";
import { AppError } from "../../errors.js";
import { failureTexts, runState } from "../runs/failures.service.js";
import * as decisions from "./decisions.repo.js";
import * as detail from "./group-detail.repo.js";
import * as groups from "./groups.repo.js";
import { untilAllTriaged, untilTriaged, type TriageDeps } from "./pending.service.js";

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

/** The stored run by key, or a 404 in words. */
async function requireRun(db: Db, key: string) {
  const stored = await runState(db, key);
  if (!stored) {
    throw new AppError(
      404,
      "run_not_found",
      `No run with key ${key}: check the key printed by the upload.`,
    );
  }
  return stored;
}

/**
 * The run as triage read it, once its triage is done (pending.service.ts, untilTriaged); null
 * for a run without failures to read yet (an open live run, a load run).
 */
export async function requireTriagedRun(
  deps: TriageDeps,
  key: string,
): Promise<groups.TriagedRun | null> {
  const { db } = deps;
  const run = await groups.findTriagedRun(db.pool, key);
  await untilTriaged(deps, run?.run_id ?? (await requireRun(db, key)).id);
  return run ?? groups.findTriagedRun(db.pool, key);
}

/** GET /v1/runs/{key}/failure-groups: the run's failures by cause. */
export async function runFailureGroups(deps: TriageDeps, key: string): Promise<RunFailureGroup[]> {
  const { db } = deps;
  const run = await requireTriagedRun(deps, key);
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
  deps: TriageDeps,
  query: FailureGroupsQuery,
  now = new Date(),
): Promise<FailureGroupList> {
  const { db } = deps;
  const since = query.since
    ? new Date(query.since.length === 10 ? `${query.since}T00:00:00Z` : query.since)
    : new Date(now.getTime() - FAILURES_DEFAULT_DAYS * DAY_MS);
  if (Number.isNaN(since.getTime())) {
    throw new AppError(400, "invalid_since", "since must be a real UTC date, e.g. 2026-11-21.");
  }
  await untilAllTriaged(deps);
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
  deps: TriageDeps,
  id: number,
  now = new Date(),
): Promise<FailureGroupDetail> {
  const { db } = deps;
  await untilAllTriaged(deps);
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

/** GET /v1/runs/{key}/gate: whether the run passes the limits given. */
export async function gate(deps: TriageDeps, key: string, limits: GateQuery): Promise<GateAnswer> {
  const { db } = deps;
  const stored = await requireRun(db, key);
  await untilTriaged(deps, stored.id);
  const counts = await detail.gateCounts(db.pool, stored.id);
  const figures = {
    failed: counts.failed,
    newFailures: counts.new_failures,
    toInvestigate: counts.to_investigate,
  };
  return { ...evaluateGate(figures, limits), counts: figures, runState: stored.state };
}

/**
 * A test's failure groups in some runs (a flaky test's evidence, issue 35): each group with the
 * runs it failed in.
 */
export async function testFailureGroups(
  deps: TriageDeps,
  testId: number,
  runIds: readonly number[],
): Promise<{ id: number; message: string; runIds: number[] }[]> {
  await untilAllTriaged(deps);
  const rows = await detail.testGroupsInRuns(deps.db.pool, testId, runIds);
  return rows.map((row) => ({ id: row.id, message: row.message, runIds: row.run_ids }));
}
