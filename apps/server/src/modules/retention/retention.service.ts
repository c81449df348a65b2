import type { RetentionPass, RetentionPeriods, RetentionStatus } from "@assay/core";
import type { Periods, RetentionPolicy } from "../../config-retention.js";
import type { Db } from "../../db/pool.js";
import * as passes from "./passes.repo.js";

/** The Setting screen's view of retention: the policy as the file gives it and the last pass. */

const periods = (p: Periods): RetentionPeriods => ({
  passedDetailsDays: p.passedDetailsDays ?? null,
  failedDetailsDays: p.failedDetailsDays ?? null,
  runsDays: p.runsDays ?? null,
  failuresDays: p.failuresDays ?? null,
});

export function toPassView(row: passes.PassRow): RetentionPass {
  return {
    id: row.id,
    trigger: row.trigger,
    state: row.state,
    startedAt: row.started_at.toISOString(),
    finishedAt: row.finished_at?.toISOString() ?? null,
    runs: row.removed.runs ?? 0,
    results: row.removed.results ?? 0,
    stepsTrimmed: row.removed.stepsTrimmed ?? 0,
    attachments: row.removed.attachments ?? 0,
    partitions: row.removed.partitions ?? [],
    bytesFreed: row.bytes_freed,
    objectBytesFreed: row.object_bytes_freed,
    databaseBytesBefore: row.database_bytes_before,
    databaseBytesAfter: row.database_bytes_after,
    message: row.message,
  };
}

export async function retentionStatus(
  db: Db,
  policy: RetentionPolicy | undefined,
): Promise<RetentionStatus> {
  const last = await passes.latestPass(db);
  return {
    policy: policy
      ? {
          schedule: policy.schedule,
          default: periods(policy.default),
          rules: policy.rules.map((rule) => ({
            family: rule.family ?? null,
            branch: rule.branch ?? null,
            ...periods(rule),
          })),
        }
      : null,
    lastPass: last && toPassView(last),
  };
}
