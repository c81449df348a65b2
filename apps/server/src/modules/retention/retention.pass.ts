import type { FastifyBaseLogger } from "fastify";
import pLimit from "p-limit";
import type { PoolClient } from "pg";
import type { RetentionPolicy } from "../../config-retention.js";
import { withTransaction, type Db } from "../../db/pool.js";
import type { ObjectStore } from "../../storage/index.js";
import * as parts from "./partitions.repo.js";
import * as passes from "./passes.repo.js";
import * as repo from "./retention.repo.js";
import {
  cleanUpRewrites,
  rewriteMonths,
  runPartition,
  type RewriteOptions,
} from "./retention.rewrite.js";
import { currentPlan, droppablePartitions } from "./retention.estimate.js";
import { ALL_STATUSES, FAILED_STATUSES, PASSED_STATUSES } from "./retention.plan.js";

/**
 * One retention pass: what the policy says goes, rolled up first, removed a batch at a time so
 * the store keeps answering (each batch is a short transaction; readers never wait on it), whole
 * partitions detached and dropped where every run in them goes. The pass holds a lease in
 * retention_passes, renewed between batches; losing it stops the pass at the next batch. A month
 * emptied only in part is then rewritten, returning its removed rows' disk (retention.rewrite.ts).
 */

export interface RetentionDeps {
  db: Db;
  objects: ObjectStore;
  policy: RetentionPolicy | undefined;
  log: FastifyBaseLogger;
  /** Unstable results of each run, as the Dashboard counts them (runs service). */
  unstableCounts: (runIds: readonly number[]) => Promise<Map<number, number>>;
  /**
   * Called in the transaction that removes results of these runs (failures among them), before
   * it removes them: Top Fails' kept totals stop trusting runs they counted (topfails service).
   */
  resultsRemoving?: (client: PoolClient, runIds: readonly number[]) => Promise<void>;
  /** Results per batch (default 5,000) and attachments per batch (default 200). */
  batch?: { results: number; attachments: number };
  /** How long the pass's lease lasts without renewal (default 10 minutes). */
  leaseMs?: number;
  /** How long a partition's detach waits for readers of results (default 5 s). */
  lockTimeoutMs?: number;
  /** When a month emptied in part is rewritten, and the tests' hooks into it. */
  rewrite?: Pick<RewriteOptions, "minFreeShare" | "pagesPerCopy" | "step">;
}

export class LeaseLost extends Error {
  constructor() {
    super("retention: the pass's lease ran out and another pass may have started; stopping");
  }
}

const LEASE_MS = 10 * 60_000;

/** A pass's work: each step renews the lease first. */
class Pass {
  readonly totals: passes.PassTotals = {
    runs: 0,
    results: 0,
    stepsTrimmed: 0,
    attachments: 0,
    apiRequests: 0,
    partitions: [],
    rewritten: [],
  };
  /** Months (partition names) this pass removed or trimmed rows of: rewritten if worth it. */
  readonly touched = new Set<string>();
  bytes = 0;
  objectBytes = 0;
  private readonly results: number;
  private readonly attachmentsPerBatch: number;
  private readonly deleteObject = pLimit(8);

  constructor(
    private readonly deps: RetentionDeps,
    private readonly id: number,
    private readonly owner: string,
    private readonly perIndex: number,
  ) {
    this.results = deps.batch?.results ?? 5_000;
    this.attachmentsPerBatch = deps.batch?.attachments ?? 200;
  }

  async renew(client?: PoolClient): Promise<void> {
    const ok = await passes.renewLease(
      client ?? this.deps.db.pool,
      this.id,
      this.owner,
      this.deps.leaseMs ?? LEASE_MS,
    );
    if (!ok) throw new LeaseLost();
  }

  /** Objects first, rows after, batch by batch (retention.repo's lockAttachments says why). */
  async removeAttachments(runId: number, statuses: readonly string[]): Promise<void> {
    for (;;) {
      await this.renew();
      const batch = await withTransaction(this.deps.db, async (client) => {
        const rows = await repo.lockAttachments(client, runId, statuses, this.attachmentsPerBatch);
        await Promise.all(
          rows.map((row) => this.deleteObject(() => this.deps.objects.delete(row.key))),
        );
        await repo.deleteAttachments(
          client,
          rows.map((row) => row.id),
        );
        return rows;
      });
      this.totals.attachments += batch.length;
      this.objectBytes += batch.reduce((sum, row) => sum + row.size, 0);
      if (batch.length < this.attachmentsPerBatch) return;
    }
  }

  /** Notes the run's month once a batch changed its results. */
  private async touch(runId: number, rows: number): Promise<void> {
    const name = rows > 0 ? await runPartition(this.deps.db, runId) : null;
    if (name) this.touched.add(name);
  }

  async removeResults(runId: number, statuses: readonly string[]): Promise<void> {
    await this.removeAttachments(runId, statuses);
    for (let first = true; ; first = false) {
      await this.renew();
      const done = statuses.includes("failed")
        ? await withTransaction(this.deps.db, async (client) => {
            await this.deps.resultsRemoving?.(client, [runId]);
            return repo.removeResults(client, runId, statuses, this.results);
          })
        : await repo.removeResults(this.deps.db.pool, runId, statuses, this.results);
      if (first) await this.touch(runId, done.rows);
      this.totals.results += done.rows;
      this.bytes += done.bytes + done.rows * this.perIndex;
      if (done.rows < this.results) return;
    }
  }

  async trimDetails(runId: number, statuses: readonly string[]): Promise<void> {
    await this.removeAttachments(runId, statuses);
    for (let first = true; ; first = false) {
      await this.renew();
      const done = await repo.trimSteps(this.deps.db.pool, runId, statuses, this.results);
      if (first) await this.touch(runId, done.rows);
      this.totals.stepsTrimmed += done.rows;
      this.bytes += done.bytes;
      if (done.rows < this.results) return;
    }
  }

  async dropPartition(partition: parts.Partition & { runIds: number[] }): Promise<void> {
    for (const runId of partition.runIds) await this.removeAttachments(runId, ALL_STATUSES);
    for (;;) {
      await this.renew();
      const n = await parts.deleteApiRequests(this.deps.db.pool, partition.runIds, this.results);
      this.totals.apiRequests += n;
      if (n < this.results) break;
    }
    await this.renew();
    const rows = (await parts.estimateResults(this.deps.db.pool, partition.runIds, ALL_STATUSES))
      .rows;
    await withTransaction(this.deps.db, async (client) => {
      await this.deps.resultsRemoving?.(client, partition.runIds);
      await parts.rollUpAndDetach(client, partition.name, this.deps.lockTimeoutMs ?? 5_000);
    });
    await parts.dropDetached(this.deps.db.pool, partition.name);
    this.totals.results += rows;
    this.totals.partitions.push(partition.name);
    this.bytes += partition.bytes;
  }

  async removeRun(runId: number): Promise<void> {
    await this.removeResults(runId, ALL_STATUSES);
    await this.renew();
    const bytes = await repo.removeRun(this.deps.db.pool, runId);
    if (bytes > 0) this.totals.runs += 1;
    this.bytes += bytes;
  }
}

async function work(pass: Pass, deps: RetentionDeps, now: Date): Promise<void> {
  const rewrite: RewriteOptions = {
    db: deps.db,
    log: deps.log,
    renew: (client) => pass.renew(client),
    lockTimeoutMs: deps.lockTimeoutMs ?? 5_000,
    ...deps.rewrite,
  };
  await pass.renew();
  // A stopped pass's rewrite is dropped before anything else, and its month measured again.
  for (const name of await cleanUpRewrites(rewrite)) pass.touched.add(name);
  const plan = await currentPlan(deps.db, deps.policy, now);
  // Runs a stopped pass had begun to remove whole are finished first, whatever the policy now.
  const leftover = await repo.doomedRunIds(deps.db.pool);
  const whole = [...new Set([...leftover, ...plan.wholeRuns])];
  const fresh = plan.wholeRuns.filter((id) => !leftover.includes(id));
  const unstable = await deps.unstableCounts(fresh);
  await withTransaction(deps.db, async (client) => {
    for (const id of fresh) await repo.markDoomed(client, id, unstable.get(id) ?? 0);
  });
  for (const partition of await droppablePartitions(deps.db, whole, now))
    await pass.dropPartition(partition);
  for (const id of whole) await pass.removeRun(id);
  for (const id of plan.passedResultRuns) await pass.removeResults(id, PASSED_STATUSES);
  for (const id of plan.passedDetailRuns) await pass.trimDetails(id, PASSED_STATUSES);
  for (const id of plan.failedDetailRuns) await pass.trimDetails(id, FAILED_STATUSES);
  pass.totals.rewritten = await rewriteMonths(rewrite, pass.touched, now);
}

export interface PassOutcome {
  id: number;
  state: "finished" | "failed";
  totals: passes.PassTotals;
  bytesFreed: number;
  objectBytesFreed: number;
  databaseBytesBefore: number;
  databaseBytesAfter: number | null;
  message: string | null;
}

/**
 * Runs a pass now as `owner`; null when another pass is running (its lease still live). A pass
 * that fails is recorded as failed with its message; what it removed before stays removed.
 */
export async function runRetentionPass(
  deps: RetentionDeps,
  owner: string,
  trigger: passes.PassTrigger,
  now = new Date(),
): Promise<PassOutcome | null> {
  const id = await passes.claimPass(deps.db, owner, trigger, deps.leaseMs ?? LEASE_MS);
  if (id === null) return null;
  const before = await parts.databaseBytes(deps.db.pool);
  const pass = new Pass(deps, id, owner, await parts.indexBytesPerResult(deps.db.pool));
  let message: string | null = null;
  try {
    await work(pass, deps, now);
  } catch (error) {
    message = (error as Error).message;
    deps.log.error({ err: error }, "retention: the pass failed");
  }
  const after = await parts.databaseBytes(deps.db.pool).catch(() => null);
  const outcome: PassOutcome = {
    id,
    state: message === null ? "finished" : "failed",
    totals: pass.totals,
    // An estimate from per-row index shares: a whole number of bytes, as logged and stored.
    bytesFreed: Math.round(pass.bytes),
    objectBytesFreed: pass.objectBytes,
    databaseBytesBefore: before,
    databaseBytesAfter: after,
    message,
  };
  await passes.endPass(deps.db, id, owner, {
    state: outcome.state,
    removed: outcome.totals,
    databaseBytesBefore: before,
    databaseBytesAfter: after,
    bytesFreed: outcome.bytesFreed,
    objectBytesFreed: outcome.objectBytesFreed,
    message,
  });
  return outcome;
}
