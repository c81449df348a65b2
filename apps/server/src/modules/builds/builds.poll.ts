import type { BuildList } from "@assay/core";
import type { FastifyBaseLogger } from "fastify";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { Jobs } from "../../jobs/jobs.js";
import type { BuildsConfig } from "./builds.config.js";
import * as repo from "./builds.repo.js";
import type { BuildRow } from "./builds.repo.js";
import { POLL_QUEUE } from "./builds.queues.js";
import { listOf } from "./builds.service.js";
import { MISSING, type Executor, type ExecutorState } from "./executors/executor.js";

/** What polling needs of the build runner. */
export interface PollHost {
  db: Kysely<Database>;
  log: FastifyBaseLogger;
  jobs: Jobs;
  builds: BuildsConfig;
  executorOf(row: Pick<BuildRow, "family" | "region">): Executor;
  finish(row: BuildRow, state: ExecutorState): Promise<void>;
}

/** The log's place, the first time the executor names it. */
export function logChange(row: BuildRow, state: ExecutorState): { remote_log?: string } {
  return state.log && row.remote_log === null ? { remote_log: JSON.stringify(state.log) } : {};
}

/**
 * One poll of every active remote build, in calls of at most the executor's batch size,
 * whichever server started it: a build of a dead server is followed all the same.
 */
export async function pollCycle(host: PollHost, cycle: number): Promise<void> {
  try {
    const active = await repo.activeBuilds(host.db, ["codebuild", "github"]);
    const now = Date.now();
    const byList = new Map<BuildList, BuildRow[]>();
    for (const row of active) {
      if (row.external_id === null) continue;
      if (new Date(row.deadline).getTime() < now) {
        await timeOut(host, row);
        continue;
      }
      const list = listOf(row);
      byList.set(list, [...(byList.get(list) ?? []), row]);
    }
    for (const [list, rows] of byList) {
      const executor = host.executorOf(rows[0]!);
      for (let i = 0; i < rows.length; i += executor.pollBatchSize) {
        const batch = rows.slice(i, i + executor.pollBatchSize);
        try {
          await applyStates(host, batch, await executor.poll(batch.map((row) => row.external_id!)));
        } catch (error) {
          // Throttled or unreachable: the builds stay as they are until the next cycle.
          host.log.warn({ err: error, list }, "builds: poll failed; retrying next cycle");
        }
      }
    }
  } finally {
    await host.jobs.send(POLL_QUEUE, { cycle: cycle + 1 }, { startAfter: host.builds.pollSeconds });
  }
}

export async function applyStates(
  host: PollHost,
  rows: BuildRow[],
  states: Map<string, ExecutorState | typeof MISSING>,
): Promise<void> {
  for (const row of rows) {
    const state = states.get(row.external_id!);
    if (state === undefined) continue;
    if (state === MISSING) {
      await host.finish(row, {
        phase: "COMPLETED",
        status: "FAILED",
        message: `The build is no longer known to ${row.executor_kind} (deleted or expired there); its results, if any, are in the run.`,
      });
    } else if (state.status !== "IN_PROGRESS") {
      await host.finish(row, state);
    } else if (state.phase !== row.current_phase || logChange(row, state).remote_log) {
      await repo.updateActiveBuild(host.db, row.id, {
        current_phase: state.phase,
        ...logChange(row, state),
      });
    }
  }
}

async function timeOut(host: PollHost, row: BuildRow): Promise<void> {
  await host.executorOf(row).stop(row.external_id!);
  await host.finish(row, {
    phase: "COMPLETED",
    status: "TIMED_OUT",
    message: `The build ran longer than its time limit (${host.builds.timeLimitMinutes} min) and was stopped.`,
  });
}
