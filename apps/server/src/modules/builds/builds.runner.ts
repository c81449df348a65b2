import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { BuildList } from "@assay/core";
import type { Kysely } from "kysely";
import type { FastifyBaseLogger } from "fastify";
import type pg from "pg";
import type { Database } from "../../db/schema.js";
import { jobQueue, type Jobs } from "../../jobs/jobs.js";
import type { ObjectStore } from "../../storage/index.js";
import { testManagementSecret, testManagementUser } from "../profile/profile.service.js";
import type { BuildsConfig, ExecutorSettings } from "./builds.config.js";
import { newBuildToken, payloadEnv, refuseControlCharacters } from "./build-env.js";
import * as repo from "./builds.repo.js";
import type { BuildRow } from "./builds.repo.js";
import { listOf } from "./builds.service.js";
import {
  BuildRefused,
  CODEBUILD_BATCH,
  MISSING,
  type Executor,
  type ExecutorState,
} from "./executors/executor.js";
import { GitHubExecutor } from "./executors/github.js";
import { LazyExecutor } from "./executors/lazy.js";
import { LocalExecutor } from "./executors/local.js";
import { keepLocalLog, logStream, logTail, type LogDeps } from "./builds.logs.js";
import { LocalStops } from "./builds.stops.js";
import { requestStop } from "./stop-requests.repo.js";

export const START_QUEUE = jobQueue<{ buildId: number }>("builds-start", {
  retryLimit: 3,
  retryDelay: 5,
  retryBackoff: true,
});
/** One poll cycle at a time across servers; each cycle queues the next. */
export const POLL_QUEUE = jobQueue<{ cycle: number }>("builds-poll", {
  policy: "stately",
  expireInSeconds: 300,
  retryLimit: 0,
});

declare module "fastify" {
  interface FastifyInstance {
    /** Starts, follows and stops builds (tests drive its poll cycle). */
    buildRunner: BuildRunner;
  }
}

export interface RunnerDeps {
  db: Kysely<Database>;
  builds: BuildsConfig;
  jobs: Jobs;
  objects: ObjectStore;
  log: FastifyBaseLogger;
  /** Where runners call back (ASSAY_PUBLIC_URL). */
  publicUrl: string;
  installDir: string;
  /** Local build logs while they run. */
  logDir: string;
  /** Key of the profile's sealed test-management secret. */
  profileKey: Buffer;
  serverEnv: NodeJS.ProcessEnv;
  /** How this server connects to the database: its stop listener opens a connection of its own. */
  connection: pg.ClientConfig;
  /** Tests replace executors (e.g. a CodeBuild client pointed at a fake). */
  executors?: Partial<Record<BuildList, Executor>>;
  /**
   * Told once per build when its end is recorded (the Daily Run Scheduler reruns failures and
   * sends summaries). A failure here is logged; the build's end stays recorded.
   */
  onFinished?: (row: BuildRow) => Promise<void>;
}

function executorFor(
  settings: ExecutorSettings,
  deps: RunnerDeps,
  onExit: LocalExecutor["options"]["onExit"],
): Executor {
  if (settings.kind === "codebuild") {
    return new LazyExecutor("codebuild", CODEBUILD_BATCH, async () => {
      const { CodeBuildExecutor } = await import("./executors/codebuild.js");
      return new CodeBuildExecutor(settings, deps.serverEnv);
    });
  }
  if (settings.kind === "github") return new GitHubExecutor(settings, deps.serverEnv);
  return new LocalExecutor(settings, {
    installDir: deps.installDir,
    logDir: deps.logDir,
    serverEnv: deps.serverEnv,
    timeLimitMs: deps.builds.timeLimitMinutes * 60_000,
    onExit,
  });
}

/**
 * Starts recorded builds on their executors, follows them (poll cycles as pg-boss jobs, the local
 * executor's exit events), stops them, and keeps their logs. A restarted server loses no build:
 * remote builds are polled again from the database, local ones it owned are started again.
 */
export class BuildRunner {
  /** This server process: local builds it runs carry it, so a restart can tell its orphans. */
  readonly boot = randomUUID();
  private readonly executors: Record<BuildList, Executor>;
  private readonly stops: LocalStops;

  constructor(private readonly deps: RunnerDeps) {
    const onExit = (buildId: number, state: ExecutorState) => {
      this.finishLocal(buildId, state).catch((error: unknown) =>
        deps.log.error({ err: error, buildId }, "builds: recording a local build's end failed"),
      );
    };
    const lists: BuildList[] = ["frontend", "china", "backend", "load"];
    this.executors = Object.fromEntries(
      lists.map((list) => [
        list,
        deps.executors?.[list] ?? executorFor(deps.builds.executors[list], deps, onExit),
      ]),
    ) as Record<BuildList, Executor>;
    this.stops = new LocalStops({
      db: deps.db,
      connection: deps.connection,
      log: deps.log,
      executors: () => this.localExecutors(),
    });
  }

  private localExecutors(): LocalExecutor[] {
    return [...new Set(Object.values(this.executors))].filter(
      (executor): executor is LocalExecutor => executor instanceof LocalExecutor,
    );
  }

  executorOf(row: Pick<BuildRow, "family" | "region">): Executor {
    return this.executors[listOf(row)];
  }

  async queueStart(buildId: number): Promise<void> {
    await this.deps.jobs.send(START_QUEUE, { buildId });
  }

  /** Registers the job handlers, takes back builds a stopped server left, and starts polling. */
  async startWorkers(): Promise<void> {
    await this.deps.jobs.work(START_QUEUE, (data) => this.start(data.buildId), {
      pollingIntervalSeconds: 1,
    });
    await this.deps.jobs.work(POLL_QUEUE, (data) => this.pollCycle(data.cycle), {
      pollingIntervalSeconds: 1,
    });
    this.stops.start();
    await this.recoverLocal();
    await this.deps.jobs.send(POLL_QUEUE, { cycle: 0 });
  }

  /** Starts a recorded build, unless it was stopped before it could start. */
  async start(buildId: number): Promise<void> {
    const { token, hash } = newBuildToken();
    const row = await repo.claimBuild(this.deps.db, buildId, this.boot, hash);
    if (!row) return;
    const env = {
      ...payloadEnv(row.payload),
      ASSAY_URL: this.deps.publicUrl,
      ASSAY_RUN_KEY: row.test_run_key,
      ASSAY_BUILD_ID: String(row.id),
      ASSAY_ATTEMPT: String(row.attempt),
      ASSAY_FAMILY: row.family,
      BUILD_REGION: row.region,
      IS_CHINA_REGION: String(row.region === "CHINA"),
      TEST_RUN_NAME: row.test_run_name,
      EXECUTOR: row.executor,
    };
    const secrets: Record<string, string> = { ASSAY_TOKEN: token };
    const spira = await this.spiraCredentials(row);
    if (spira !== undefined) secrets.SPIRA_CREDENTIALS_STRING = spira;
    try {
      refuseControlCharacters({ ...env, ...secrets });
      const launched = await this.executorOf(row).start({
        buildId,
        runKey: row.test_run_key,
        sourceVersion: row.source_version,
        env,
        secrets,
      });
      const updated = await repo.updateActiveBuild(this.deps.db, buildId, {
        external_id: launched.externalId,
        external_url: launched.externalUrl,
        current_phase: launched.state.phase,
        ...logChange(row, launched.state),
      });
      // Stopped while it was being started: stop it at the executor too.
      if (!updated) await this.executorOf(row).stop(launched.externalId);
    } catch (error) {
      if (!(error instanceof BuildRefused)) throw error;
      await this.finish(row, {
        phase: "COMPLETED",
        status: "FAILED",
        endTime: new Date(),
        message: error.message,
      });
    }
  }

  /** The Spira credential string of the user who started the build: user:secret, if the profile has both. */
  private async spiraCredentials(row: BuildRow): Promise<string | undefined> {
    if (row.started_by_id === null) return undefined;
    const user = await testManagementUser(this.deps.db, row.started_by_id);
    const secret = await testManagementSecret(
      { db: this.deps.db, key: this.deps.profileKey, objects: this.deps.objects },
      row.started_by_id,
    );
    return user && secret ? `${user}:${secret}` : undefined;
  }

  /** Records a build's end; the token dies with it (it is valid only while IN_PROGRESS). */
  async finish(row: BuildRow, state: ExecutorState): Promise<void> {
    const ended = await repo.updateActiveBuild(this.deps.db, row.id, {
      current_phase: "COMPLETED",
      build_status: state.status,
      end_time: state.endTime ?? new Date(),
      status_message: state.message ?? row.status_message,
      ...logChange(row, state),
    });
    if (row.executor_kind === "local") await keepLocalLog(this.logs(), row.id);
    // Only the call that recorded the end tells (the conditional update decides).
    if (ended && this.deps.onFinished) {
      await this.deps
        .onFinished(ended)
        .catch((error: unknown) =>
          this.deps.log.error({ err: error, buildId: row.id }, "builds: end follow-up failed"),
        );
    }
  }

  private async finishLocal(buildId: number, state: ExecutorState): Promise<void> {
    const row = await repo.findBuild(this.deps.db, buildId);
    if (row) await this.finish(row, state);
  }

  /**
   * Asks the executor to stop an active build; one not started yet is stopped at once. A local
   * build is stopped through a stop request, so it ends whichever server runs it.
   */
  async stop(row: BuildRow, by: string): Promise<void> {
    const message = `Stopped by ${by}.`;
    if (row.executor_kind === "local") {
      if (!(await requestStop(this.deps.db, row.id, by, message))) return;
      // Not started yet: it ends now; a start in flight on any server then ends its process.
      if (row.external_id === null)
        await this.finish(row, { phase: "COMPLETED", status: "STOPPED", message });
      else this.stops.endHere([row.id]);
      return;
    }
    if (row.external_id === null) {
      await this.finish(row, { phase: "COMPLETED", status: "STOPPED", message });
      return;
    }
    await repo.updateActiveBuild(this.deps.db, row.id, { status_message: message });
    const executor = this.executorOf(row);
    await executor.stop(row.external_id);
    await this.apply([row], await executor.poll([row.external_id]));
  }

  /** One poll of every active remote build, in calls of at most the executor's batch size. */
  async pollCycle(cycle: number): Promise<void> {
    try {
      const active = await repo.activeBuilds(this.deps.db, ["codebuild", "github"]);
      const now = Date.now();
      const byList = new Map<BuildList, BuildRow[]>();
      for (const row of active) {
        if (row.external_id === null) continue;
        if (new Date(row.deadline).getTime() < now) {
          await this.timeOut(row);
          continue;
        }
        const list = listOf(row);
        byList.set(list, [...(byList.get(list) ?? []), row]);
      }
      for (const [list, rows] of byList) {
        const executor = this.executors[list];
        for (let i = 0; i < rows.length; i += executor.pollBatchSize) {
          const batch = rows.slice(i, i + executor.pollBatchSize);
          try {
            await this.apply(batch, await executor.poll(batch.map((row) => row.external_id!)));
          } catch (error) {
            // Throttled or unreachable: the builds stay as they are until the next cycle.
            this.deps.log.warn({ err: error, list }, "builds: poll failed; retrying next cycle");
          }
        }
      }
    } finally {
      await this.deps.jobs.send(
        POLL_QUEUE,
        { cycle: cycle + 1 },
        { startAfter: this.deps.builds.pollSeconds },
      );
    }
  }

  private async apply(
    rows: BuildRow[],
    states: Map<string, ExecutorState | typeof MISSING>,
  ): Promise<void> {
    for (const row of rows) {
      const state = states.get(row.external_id!);
      if (state === undefined) continue;
      if (state === MISSING) {
        await this.finish(row, {
          phase: "COMPLETED",
          status: "FAILED",
          message: `The build is no longer known to ${row.executor_kind} (deleted or expired there); its results, if any, are in the run.`,
        });
      } else if (state.status !== "IN_PROGRESS") {
        await this.finish(row, state);
      } else if (state.phase !== row.current_phase || logChange(row, state).remote_log) {
        await repo.updateActiveBuild(this.deps.db, row.id, {
          current_phase: state.phase,
          ...logChange(row, state),
        });
      }
    }
  }

  private async timeOut(row: BuildRow): Promise<void> {
    await this.executorOf(row).stop(row.external_id!);
    await this.finish(row, {
      phase: "COMPLETED",
      status: "TIMED_OUT",
      message: `The build ran longer than its time limit (${this.deps.builds.timeLimitMinutes} min) and was stopped.`,
    });
  }

  /**
   * Local builds a previous server process was running: their process is ended if it is still
   * there (identified by its ASSAY_BUILD_ID, so a reused pid is never killed), and they are
   * started again, appending to their log; one somebody asked to stop ends STOPPED instead.
   */
  private async recoverLocal(): Promise<void> {
    for (const row of await repo.activeBuilds(this.deps.db, ["local"])) {
      if (row.runner_boot === this.boot || row.external_id === null) continue;
      killOrphan(Number(row.external_id), row.id);
      if (row.stop_requested_at !== null) {
        await this.finish(row, { phase: "COMPLETED", status: "STOPPED" });
        continue;
      }
      await repo.updateActiveBuild(this.deps.db, row.id, {
        external_id: null,
        current_phase: "QUEUED",
        status_message: "Assay restarted while this build ran; it was started again.",
      });
      await this.queueStart(row.id);
    }
  }

  private logs(): LogDeps {
    return {
      db: this.deps.db,
      objects: this.deps.objects,
      logDir: this.deps.logDir,
      remote: (row) => this.executorOf(row).logs,
    };
  }

  /** Tail of a build's log (live file while it runs, else the stored object). */
  logTail(row: BuildRow, maxBytes: number) {
    return logTail(this.logs(), row, maxBytes);
  }

  /** The whole log as a stream, or undefined when there is none (yet). */
  logStream(row: BuildRow) {
    return logStream(this.logs(), row);
  }

  /** Server shutdown: local builds are ended and stay active, to be started again on restart. */
  async close(): Promise<void> {
    for (const executor of this.localExecutors()) executor.stopAll();
    await this.stops.close();
  }
}

/** The log's place, the first time the executor names it. */
function logChange(row: BuildRow, state: ExecutorState): { remote_log?: string } {
  return state.log && row.remote_log === null ? { remote_log: JSON.stringify(state.log) } : {};
}

/** Ends a previous server's build process, if the pid still belongs to that build. */
function killOrphan(pid: number, buildId: number): void {
  try {
    const environ = readFileSync(path.join("/proc", String(pid), "environ"), "latin1");
    if (!environ.split("\0").includes(`ASSAY_BUILD_ID=${buildId}`)) return;
    process.kill(-pid, "SIGKILL");
  } catch {
    // Gone already, or not ours to read.
  }
}
