import type { BuildList } from "@assay/core";
import type { Kysely } from "kysely";
import type { FastifyBaseLogger } from "fastify";
import type pg from "pg";
import type { Database } from "../../db/schema.js";
import type { Jobs } from "../../jobs/jobs.js";
import { POLL_QUEUE, START_QUEUE } from "./builds.queues.js";
import type { ObjectStore } from "../../storage/index.js";
import { testManagementSecret, testManagementUser } from "../profile/profile.service.js";
import type { BuildsConfig } from "./builds.config.js";
import { newBuildToken, payloadEnv, refuseControlCharacters } from "./build-env.js";
import * as repo from "./builds.repo.js";
import type { BuildRow } from "./builds.repo.js";
import { listOf } from "./builds.service.js";
import { BuildRefused, type Executor, type ExecutorState } from "./executors/executor.js";
import { executorFor } from "./executors/make.js";
import { LocalExecutor } from "./executors/local.js";
import { appendMarker, keepLocalLog, logStream, logTail, type LogDeps } from "./builds.logs.js";
import { addEvent } from "./build-events.repo.js";
import { executorSecrets, SecretMask } from "./builds.mask.js";
import { killOrphan, serverWords, takeOverBuilds, type Registry } from "./builds.takeover.js";
import { LocalStops } from "./builds.stops.js";
import { applyStates, logChange, pollCycle, type PollHost } from "./builds.poll.js";
import { requestStop } from "./stop-requests.repo.js";

export { START_QUEUE, POLL_QUEUE };

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
  /** This server process and its lease (modules/servers): builds it runs carry its id. */
  registry: Registry;
  /** Tests replace executors (e.g. a CodeBuild client pointed at a fake). */
  executors?: Partial<Record<BuildList, Executor>>;
  /**
   * Told once per build when its end is recorded (the Daily Run Scheduler reruns failures and
   * sends summaries). A failure here is logged; the build's end stays recorded.
   */
  onFinished?: (row: BuildRow) => Promise<void>;
}

/** How long a local build waits before it looks for a free slot again. */
const SLOT_WAIT_SECONDS = 3;

/**
 * Starts recorded builds on their executors, follows them (poll cycles as pg-boss jobs, the local
 * executor's exit events), stops them, and keeps their logs. No build is lost with its server:
 * once a server's lease runs out, another takes its builds over (builds.takeover.ts).
 */
export class BuildRunner {
  private readonly executors: Record<BuildList, Executor>;
  private readonly stops: LocalStops;
  /** Local builds claimed here whose process is not running yet (they hold a slot). */
  private starting = 0;
  /** Local builds' ends being recorded; close waits for them, so none is cut off mid-way. */
  private readonly ending = new Set<Promise<void>>();

  constructor(private readonly deps: RunnerDeps) {
    const onExit = (buildId: number, state: ExecutorState) => {
      const ending = this.finishLocal(buildId, state)
        .catch((error: unknown) =>
          deps.log.error({ err: error, buildId }, "builds: recording a local build's end failed"),
        )
        .finally(() => this.ending.delete(ending));
      this.ending.add(ending);
    };
    const lists: BuildList[] = ["frontend", "china", "backend", "load"];
    this.executors = Object.fromEntries(
      lists.map((list) => [
        list,
        deps.executors?.[list] ?? executorFor(deps.builds.executors[list], { ...deps, onExit }),
      ]),
    ) as Record<BuildList, Executor>;
    this.stops = new LocalStops({
      db: deps.db,
      connection: deps.connection,
      log: deps.log,
      executors: () => this.localExecutors(),
    });
  }

  /** This server process's id (a new one after it lost its lease). */
  get serverId(): string {
    return this.deps.registry.id;
  }

  /** Local builds this server may still start under builds.localConcurrency. */
  freeLocalSlots(): number {
    const running = this.localExecutors().reduce(
      (sum, executor) => sum + executor.runningBuildIds().length,
      0,
    );
    return this.deps.builds.localConcurrency - running - this.starting;
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

  /**
   * Registers the job handlers and starts polling; builds of dead servers (this one's previous
   * process included) are taken over at each heartbeat of the registry.
   */
  async startWorkers(): Promise<void> {
    await this.deps.jobs.work(START_QUEUE, (data) => this.start(data.buildId), {
      pollingIntervalSeconds: 1,
    });
    await this.deps.jobs.work(POLL_QUEUE, (data) => this.pollCycle(data.cycle), {
      pollingIntervalSeconds: 1,
    });
    this.stops.start();
    this.deps.registry.onSweep(async (live) => {
      await takeOverBuilds(this, this.deps, live);
      // The poll cycle's chain is sent again (one at a time: the queue is stately), in case the
      // server running a cycle died with it.
      await this.deps.jobs.send(POLL_QUEUE, { cycle: 0 });
    });
    // Paused past its lease: its builds are another server's now; their processes end here.
    this.deps.registry.onLeaseLost(() => {
      for (const executor of this.localExecutors()) executor.stopAll();
    });
    await this.deps.jobs.send(POLL_QUEUE, { cycle: 0 });
  }

  /** Starts a recorded build, unless it was stopped before it could start or no slot is free. */
  async start(buildId: number): Promise<void> {
    const found = await repo.findBuild(this.deps.db, buildId);
    if (!found || found.build_status !== "IN_PROGRESS" || found.runner_boot !== null) return;
    const local = found.executor_kind === "local";
    if (local && this.freeLocalSlots() <= 0) {
      await this.waitForSlot(found);
      return;
    }
    if (local) this.starting++;
    try {
      const { token, hash } = newBuildToken();
      const row = await repo.claimBuild(this.deps.db, buildId, this.serverId, hash);
      if (!row) return;
      const words = `Started by ${serverWords(this.deps.registry)}, try ${row.tries}.`;
      await addEvent(this.deps.db, row.id, "started", words, this.serverId);
      await this.launch(row, token);
    } finally {
      if (local) this.starting--;
    }
  }

  /** Every local slot of this server is taken: the build waits QUEUED and is offered again. */
  private async waitForSlot(row: BuildRow): Promise<void> {
    const message = `Waiting for a free local build slot (each server runs ${this.deps.builds.localConcurrency} at once).`;
    if (row.status_message !== message) {
      await repo.updateActiveBuild(this.deps.db, row.id, {
        current_phase: "QUEUED",
        status_message: message,
      });
      await addEvent(this.deps.db, row.id, "waiting", message, this.serverId);
    }
    await this.deps.jobs.send(START_QUEUE, { buildId: row.id }, { startAfter: SLOT_WAIT_SECONDS });
  }

  /** Runs a claimed build (a first start, or a takeover's next try) on its executor. */
  async launch(row: BuildRow, token: string): Promise<void> {
    const buildId = row.id;
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
    if (row.executor_kind === "local") {
      const at = new Date().toISOString();
      const words = `Try ${row.tries} of build ${buildId}, started by ${serverWords(this.deps.registry)} at ${at}`;
      appendMarker(this.deps.logDir, buildId, words);
    }
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

  /** Records a build's end, once; its token is revoked with it. */
  async finish(row: BuildRow, state: ExecutorState): Promise<void> {
    const finished = `Finished ${state.status}${row.tries > 1 ? ` on try ${row.tries}` : ""}.`;
    // The end and its event in one transaction: a reader that sees the build ended sees its
    // "finished" event too, and a server dying between them cannot leave one without the other.
    const ended = await this.deps.db.transaction().execute(async (trx) => {
      const updated = await repo.updateActiveBuild(trx, row.id, {
        current_phase: "COMPLETED",
        build_status: state.status,
        end_time: state.endTime ?? new Date(),
        // The latest event's words: an earlier note (a takeover) does not outlive the end.
        status_message: state.message ?? endWords(row, finished),
        token_hash: null,
        ...logChange(row, state),
      });
      if (updated) {
        const words = state.message ? `${finished} ${state.message}` : finished;
        await addEvent(trx, row.id, "finished", words, this.serverId);
      }
      return updated;
    });
    if (row.executor_kind === "local") await keepLocalLog(this.logs(), row);
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
    // A build another server took over (this one was paused past its lease) is not ended here.
    if (row && row.runner_boot === this.serverId) await this.finish(row, state);
  }

  /**
   * Asks the executor to stop an active build; one not started yet is stopped at once. A local
   * build is stopped through a stop request, so it ends whichever server runs it.
   */
  async stop(row: BuildRow, by: string): Promise<void> {
    const message = `Stopped by ${by}.`;
    const asked = `Stop asked by ${by} on ${serverWords(this.deps.registry)}.`;
    if (row.executor_kind === "local") {
      if (!(await requestStop(this.deps.db, row.id, by, message))) return;
      await addEvent(this.deps.db, row.id, "stop_requested", asked, this.serverId);
      const owner = row.runner_boot;
      const ownerDead =
        owner !== null && owner !== this.serverId && !(await this.deps.registry.isLive(owner));
      // Not started yet, or its server is dead: it ends now (a start in flight on any server
      // then ends its process; a dead server's process, if on this host, is ended here).
      if (row.external_id === null || ownerDead) {
        if (ownerDead && row.external_id !== null) killOrphan(Number(row.external_id), row.id);
        await this.finish(row, { phase: "COMPLETED", status: "STOPPED", message });
      } else this.stops.endHere([row.id]);
      return;
    }
    await addEvent(this.deps.db, row.id, "stop_requested", asked, this.serverId);
    if (row.external_id === null) {
      await this.finish(row, { phase: "COMPLETED", status: "STOPPED", message });
      return;
    }
    await repo.updateActiveBuild(this.deps.db, row.id, { status_message: message });
    const executor = this.executorOf(row);
    await executor.stop(row.external_id);
    await applyStates(this.pollHost(), [row], await executor.poll([row.external_id]));
  }

  /** One poll of every active remote build (builds.poll.ts). */
  async pollCycle(cycle: number): Promise<void> {
    await pollCycle(this.pollHost(), cycle);
  }

  private pollHost(): PollHost {
    return {
      db: this.deps.db,
      log: this.deps.log,
      jobs: this.deps.jobs,
      builds: this.deps.builds,
      executorOf: (row) => this.executorOf(row),
      finish: (row, state) => this.finish(row, state),
    };
  }

  private logs(): LogDeps {
    return {
      db: this.deps.db,
      objects: this.deps.objects,
      logDir: this.deps.logDir,
      remote: (row) => this.executorOf(row).logs,
      mask: async (row) => {
        const spira = await this.spiraCredentials(row).catch(() => undefined);
        const secret = spira?.slice(spira.indexOf(":") + 1);
        const executors = Object.values(this.deps.builds.executors);
        return new SecretMask([
          ...executorSecrets(executors, this.deps.serverEnv),
          ...(spira && secret ? [spira, secret] : []),
        ]);
      },
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
    await Promise.all(this.ending);
  }
}

/**
 * The words a build ends with when its executor gives none: a stop request's ("Stopped by X."),
 * else, after a takeover, the end itself, so the takeover note does not read as the latest.
 */
function endWords(row: BuildRow, finished: string): string | null {
  if (row.stop_requested_at !== null || row.tries <= 1) return row.status_message;
  return finished;
}
