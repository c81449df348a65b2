import PgBoss from "pg-boss";
import type pg from "pg";
import type { Logger } from "pino";
import { guardLostJobCompletions } from "./lost-completion.js";

/**
 * Background work (build polling, daily runs, syncs, comparisons) as pg-boss queues in Assay's
 * own PostgreSQL, in the schema `pgboss`, which pg-boss creates and migrates itself under an
 * advisory lock. It shares the server's pool, so there is one set of connections to watch and
 * a job survives a restart: whatever server starts next picks it up.
 */

/** A queue and the shape of what its jobs carry. Modules declare theirs as constants. */
export interface JobQueue<T extends object> {
  name: string;
  /** Retry, expiry and retention of the queue's jobs (pg-boss queue options). */
  options?: Omit<PgBoss.Queue, "name">;
  /** Only for the type: a queue's jobs carry a T. */
  readonly __data?: T;
}

export function jobQueue<T extends object>(
  name: string,
  options?: Omit<PgBoss.Queue, "name">,
): JobQueue<T> {
  return { name, options };
}

export interface JobHandlerOptions {
  /** How often an idle worker looks for jobs (pg-boss' minimum is 0.5 s). */
  pollingIntervalSeconds?: number;
}

/** The pg-boss schema is kept beside Assay's tables; its name is fixed so tools can find it. */
export const JOBS_SCHEMA = "pgboss";

const STOP_TIMEOUT_MS = 10_000;

export class Jobs {
  private readonly queues = new Set<string>();
  /** This server's workers per queue: woken when this server sends to their queue. */
  private readonly workers = new Map<string, string[]>();

  private constructor(
    private readonly boss: PgBoss,
    private readonly log: Logger,
  ) {}

  /**
   * Installs or migrates the pg-boss schema and starts its supervisor (expiry, retention) and
   * its clock for `schedule`. Workers start only when a module registers a handler.
   */
  static async start(pool: pg.Pool, log: Logger): Promise<Jobs> {
    const boss = new PgBoss({
      db: { executeSql: (text, values) => pool.query(text, values) },
      schema: JOBS_SCHEMA,
    });
    // pg-boss reports its own failures (a lost connection while polling) as events; they are
    // logged and it retries on its next poll, as the pool replaces the connection.
    boss.on("error", (error) => log.error({ err: error }, "background jobs: pg-boss error"));
    guardLostJobCompletions(log);
    await boss.start();
    return new Jobs(boss, log);
  }

  /**
   * Makes the queue exist now. A module that sends inside another transaction (on that
   * transaction's connection) declares its queue when it registers: created at the first send,
   * the queue would take a second connection from the pool while the first is held, and uploads
   * in parallel could hold every connection waiting for one more.
   */
  async declare<T extends object>(queue: JobQueue<T>): Promise<void> {
    await this.ensureQueue(queue);
  }

  private async ensureQueue<T extends object>(queue: JobQueue<T>): Promise<void> {
    if (this.queues.has(queue.name)) return;
    // createQueue is idempotent in pg-boss 10 (an existing queue is left as it is).
    await this.boss.createQueue(queue.name, { name: queue.name, ...queue.options });
    this.queues.add(queue.name);
  }

  /**
   * Runs `handler` for each job of the queue, one at a time per server. A handler that throws
   * fails the job, which pg-boss retries as the queue's options say.
   */
  async work<T extends object>(
    queue: JobQueue<T>,
    handler: (data: T, jobId: string) => Promise<void>,
    options: JobHandlerOptions = {},
  ): Promise<void> {
    await this.ensureQueue(queue);
    const workerId = await this.boss.work<T>(
      queue.name,
      { batchSize: 1, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2 },
      async (jobs) => {
        for (const job of jobs) {
          try {
            await handler(job.data, job.id);
          } catch (error) {
            this.log.warn({ err: error, queue: queue.name, jobId: job.id }, "job failed");
            throw error;
          }
        }
      },
    );
    this.workers.set(queue.name, [...(this.workers.get(queue.name) ?? []), workerId]);
  }

  /**
   * Queues a job; with `singletonKey`, a job already queued under that key is not doubled. A
   * worker of this server for the queue is woken at once instead of at its next poll (a Run
   * Report's job starts without waiting up to a polling interval); other servers poll as usual.
   */
  async send<T extends object>(
    queue: JobQueue<T>,
    data: T,
    options: PgBoss.SendOptions = {},
  ): Promise<string | null> {
    await this.ensureQueue(queue);
    const id = await this.boss.send(queue.name, data, options);
    for (const workerId of this.workers.get(queue.name) ?? []) this.boss.notifyWorker(workerId);
    return id;
  }

  /**
   * Sends `data` to the queue on a cron schedule (one schedule per queue; pg-boss sends each
   * slot once across servers, with a minute's precision).
   */
  async schedule<T extends object>(
    queue: JobQueue<T>,
    cron: string,
    data: T,
    options: PgBoss.ScheduleOptions = {},
  ): Promise<void> {
    await this.ensureQueue(queue);
    await this.boss.schedule(queue.name, cron, data, options);
  }

  /** Stops taking jobs and waits (bounded) for the running ones, before the pool closes. */
  async stop(): Promise<void> {
    await this.boss.stop({ graceful: true, wait: true, close: false, timeout: STOP_TIMEOUT_MS });
  }
}
