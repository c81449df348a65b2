import type { RetentionPolicy } from "../../config-retention.js";
import type { Db } from "../../db/pool.js";
import * as parts from "./partitions.repo.js";
import * as repo from "./retention.repo.js";
import {
  ALL_STATUSES,
  FAILED_STATUSES,
  PASSED_STATUSES,
  planRetention,
  youngestCutoff,
  type RetentionPlan,
} from "./retention.plan.js";

/**
 * What a pass would remove now and what it would return (`assay retention --dry-run`), measured
 * by PostgreSQL: rows by count(*), their bytes by pg_column_size plus their share of the
 * indexes, whole partitions by pg_total_relation_size, objects by the sizes attachments record.
 */

export interface RetentionEstimate {
  plan: RetentionPlan;
  /** Partitions of results removed whole (detached and dropped): every run in them goes. */
  partitions: { name: string; bytes: number }[];
  runs: number;
  results: number;
  stepsTrimmed: number;
  attachments: number;
  /** Table and index bytes returned; dropped partitions' exactly, rows' by their size. */
  databaseBytes: number;
  objectBytes: number;
  databaseSize: number;
}

const EMPTY_PLAN: RetentionPlan = {
  wholeRuns: [],
  passedResultRuns: [],
  passedDetailRuns: [],
  failedDetailRuns: [],
};

/** The plan for `now`: runs read are only those old enough for some rule. */
export async function currentPlan(
  db: Db,
  policy: RetentionPolicy | undefined,
  now: Date,
): Promise<RetentionPlan> {
  const cutoff = policy && youngestCutoff(policy, now);
  if (!policy || !cutoff) return EMPTY_PLAN;
  return planRetention(policy, await repo.finishedRunsBefore(db.pool, cutoff), now);
}

/**
 * Partitions (ended before `now`, not empty) whose every run is removed whole: they are dropped
 * rather than emptied row by row.
 */
export async function droppablePartitions(
  db: Db,
  wholeRuns: readonly number[],
  now: Date,
): Promise<(parts.Partition & { runIds: number[] })[]> {
  if (wholeRuns.length === 0) return [];
  const doomed = new Set(wholeRuns);
  const droppable: (parts.Partition & { runIds: number[] })[] = [];
  for (const partition of await parts.resultPartitions(db.pool)) {
    if (!partition.to || partition.to > now) continue;
    const runIds = await parts.partitionRunIds(db.pool, partition.name);
    // An empty month frees nothing, and a late report of that month still has its place.
    if (runIds.length > 0 && runIds.every((id) => doomed.has(id)))
      droppable.push({ ...partition, runIds });
  }
  return droppable;
}

export async function estimateRetention(
  db: Db,
  policy: RetentionPolicy | undefined,
  now = new Date(),
): Promise<RetentionEstimate> {
  const plan = await currentPlan(db, policy, now);
  const c = db.pool;
  const partitions = await droppablePartitions(db, plan.wholeRuns, now);
  const inPartitions = new Set(partitions.flatMap((p) => p.runIds));
  const rowByRow = plan.wholeRuns.filter((id) => !inPartitions.has(id));
  const perIndex = await parts.indexBytesPerResult(c);
  const [dropped, whole, passed, passedSteps, failedSteps] = await Promise.all([
    parts.estimateResults(c, [...inPartitions], ALL_STATUSES),
    parts.estimateResults(c, rowByRow, ALL_STATUSES),
    parts.estimateResults(c, plan.passedResultRuns, PASSED_STATUSES),
    parts.estimateSteps(c, plan.passedDetailRuns, PASSED_STATUSES),
    parts.estimateSteps(c, plan.failedDetailRuns, FAILED_STATUSES),
  ]);
  const attachments = await Promise.all([
    parts.estimateAttachments(c, plan.wholeRuns, ALL_STATUSES),
    parts.estimateAttachments(
      c,
      [...plan.passedResultRuns, ...plan.passedDetailRuns],
      PASSED_STATUSES,
    ),
    parts.estimateAttachments(c, plan.failedDetailRuns, FAILED_STATUSES),
  ]);
  const rows = (e: parts.Estimate) => e.bytes + e.rows * perIndex;
  return {
    plan,
    partitions: partitions.map(({ name, bytes }) => ({ name, bytes })),
    runs: plan.wholeRuns.length,
    results: dropped.rows + whole.rows + passed.rows,
    stepsTrimmed: passedSteps.rows + failedSteps.rows,
    attachments: attachments.reduce((sum, a) => sum + a.rows, 0),
    databaseBytes:
      partitions.reduce((sum, p) => sum + p.bytes, 0) +
      rows(whole) +
      rows(passed) +
      passedSteps.bytes +
      failedSteps.bytes,
    objectBytes: attachments.reduce((sum, a) => sum + a.bytes, 0),
    databaseSize: await parts.databaseBytes(c),
  };
}
