import type { FastifyBaseLogger } from "fastify";
import type { Kysely } from "kysely";
import type pg from "pg";
import type { Database } from "../../db/schema.js";
import type { LocalExecutor } from "./executors/local.js";
import { listenForStops, stopRequestedAmong, type StopListener } from "./stop-requests.repo.js";

/** How often a server looks for stop requests of the builds it runs, should a NOTIFY be missed. */
export const STOP_SWEEP_MS = 5_000;

export interface LocalStopsDeps {
  db: Kysely<Database>;
  /** The database connection the listener opens (the pool's settings). */
  connection: pg.ClientConfig;
  log: FastifyBaseLogger;
  /** The local executors of this server: the builds it runs. */
  executors: () => LocalExecutor[];
  sweepMs?: number;
}

/**
 * The running side of Stop for local builds: whichever server receives Stop records the request
 * (stop-requests.repo.ts); this server ends the builds it runs when told (LISTEN) and, as a
 * fallback for a missed notification, when a sweep finds a request on one of them.
 */
export class LocalStops {
  private listener: StopListener | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: LocalStopsDeps) {}

  start(): void {
    this.listener = listenForStops(this.deps.connection, {
      onStop: (buildId) => this.endHere([buildId]),
      onConnected: () => void this.sweep(),
      onError: (error) =>
        this.deps.log.warn({ err: error }, "builds: stop listener lost its connection; reopening"),
    });
    this.timer = setInterval(() => void this.sweep(), this.deps.sweepMs ?? STOP_SWEEP_MS);
    this.timer.unref();
  }

  /** Ends those of the builds this server runs; the others are not its own. */
  endHere(buildIds: readonly number[]): void {
    for (const buildId of buildIds) {
      for (const executor of this.deps.executors()) if (executor.stopBuild(buildId)) break;
    }
  }

  /** Ends the builds this server runs that have a stop request. */
  async sweep(): Promise<void> {
    const running = this.deps.executors().flatMap((executor) => executor.runningBuildIds());
    if (running.length === 0) return;
    try {
      this.endHere(await stopRequestedAmong(this.deps.db, running));
    } catch (error) {
      this.deps.log.warn({ err: error }, "builds: looking for stop requests failed");
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.listener?.close();
  }
}
