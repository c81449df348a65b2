import type { FastifyBaseLogger } from "fastify";
import type { PoolClient } from "pg";
import { withTransaction, type Db } from "../../db/pool.js";
import { partitionName } from "../storage/partitions.repo.js";
import * as parts from "./partitions.repo.js";
import * as rw from "./rewrite.repo.js";

/**
 * A month retention emptied only in part (it holds the cut-off, so some of its runs stay) keeps
 * the removed rows' space inside its partition, reusable by that month alone, which takes no more
 * rows. Rewriting it returns that space to the disk: its kept rows are copied (ids and all, so
 * what points at them stays right) into a table shaped like it, indexes built after the copy,
 * and the copy is swapped in. Reads go on against the partition meanwhile; writes into it (a
 * rerun into an old run) go on too, logged by a trigger and carried over at the swap, which holds
 * results' lock for the time of a few catalogue changes (and waits for it at most lockTimeoutMs,
 * as a partition's drop does).
 *
 * A pass stopped anywhere leaves the partition whole and in place: the copy is a table apart (in
 * the retention_rewrite schema) until the swap's one transaction. The next pass drops what a
 * stopped one left (the copy, the trigger, the logged ids) and measures that month again.
 */

export interface RewriteOptions {
  db: Db;
  log: FastifyBaseLogger;
  /** Renews the pass's lease (in the client's transaction when given); throws when it is lost. */
  renew: (client?: PoolClient) => Promise<void>;
  lockTimeoutMs: number;
  /** The share of its table a month must have free to be rewritten (default 0.2). */
  minFreeShare?: number;
  /** Pages copied per statement (default 12,800: 100 MB). */
  pagesPerCopy?: number;
  /** Called between the steps (tests: reads, writes and a lost lease in mid-rewrite). */
  step?: (step: "copied" | "indexed", partition: string) => Promise<void>;
}

/** Logged writes above which the swap is not tried (they would be copied under the lock). */
const MAX_CARRIED = 50_000;
const SWAP_TRIES = 3;
const LOCK_NOT_AVAILABLE = "55P03";

/** The month of each run (its created_at, which is its results' run_at): its partition's name. */
export async function runPartition(db: Db, runId: number): Promise<string | null> {
  const at = await rw.runCreatedAt(db.pool, runId);
  return at && partitionName(at);
}

/**
 * Drops what a stopped rewrite left; returns the months it was rewriting, to measure again.
 * Called under the pass's lease: no other rewrite is under way.
 */
export async function cleanUpRewrites(options: RewriteOptions): Promise<string[]> {
  const { db, log, lockTimeoutMs } = options;
  const { copies, logging } = await rw.leftovers(db.pool);
  for (const name of copies) await rw.dropCopy(db.pool, name);
  for (const name of logging)
    await withTransaction(db, (client) => rw.stopLogging(client, name, lockTimeoutMs));
  await rw.forgetLoggedWrites(db.pool);
  const months = [...new Set([...copies, ...logging])];
  if (months.length > 0) log.warn({ months }, "retention: a stopped rewrite's leftovers dropped");
  return months;
}

/** A month's fill, and whether enough of it is free to be worth rewriting. */
async function worthRewriting(options: RewriteOptions, name: string): Promise<boolean> {
  const fill = await rw.measureFill(options.db.pool, name);
  const free = fill.tableBytes > 0 ? 1 - fill.liveBytes / fill.tableBytes : 0;
  const worth = free >= (options.minFreeShare ?? 0.2);
  options.log.info({ partition: name, ...fill, free, worth }, "retention: a month's free share");
  return worth;
}

/**
 * Rewrites each of `months` (partition names) that has ended, is worth it, and is still a
 * partition of results; returns those rewritten.
 */
export async function rewriteMonths(
  options: RewriteOptions,
  months: Iterable<string>,
  now: Date,
): Promise<string[]> {
  const wanted = new Set(months);
  const done: string[] = [];
  for (const partition of await parts.resultPartitions(options.db.pool)) {
    const { name, from, to } = partition;
    if (!wanted.has(name) || !from || !to || to > now) continue;
    await options.renew();
    if (!(await worthRewriting(options, name))) continue;
    if (await rewriteMonth(options, name, { from, to })) done.push(name);
  }
  return done;
}

async function rewriteMonth(
  options: RewriteOptions,
  name: string,
  bounds: { from: Date; to: Date },
): Promise<boolean> {
  const { db, lockTimeoutMs } = options;
  await withTransaction(db, (client) => rw.startLogging(client, name, lockTimeoutMs));
  try {
    const pages = await rw.createCopy(db.pool, name, bounds);
    const chunk = options.pagesPerCopy ?? 12_800;
    for (let page = 0; page < pages; page += chunk) {
      await options.renew();
      await withTransaction(db, (client) => rw.copyPages(client, name, page, page + chunk));
    }
    await rw.dropLoggedRows(db.pool, name);
    await options.step?.("copied", name);
    for (const statement of await rw.indexStatements(db.pool, name)) {
      await options.renew();
      await withTransaction(db, (client) => rw.buildIndex(client, statement));
    }
    const client = await db.pool.connect();
    await rw.vacuumCopy(client, name).finally(() => client.release());
    await options.step?.("indexed", name);
    return await swap(options, name, bounds);
  } catch (error) {
    // Cleaned up only while the lease is still this pass's: otherwise the next pass may already
    // be rewriting this month with a copy of the same name.
    const ours = await options.renew().then(
      () => true,
      () => false,
    );
    // Left to the next pass if it fails too (a reader holding the partition past the timeout).
    if (ours)
      await cleanUp(options, name).catch((cleanUpError: unknown) =>
        options.log.warn({ err: cleanUpError, partition: name }, "retention: rewrite left over"),
      );
    throw error;
  }
}

async function cleanUp(options: RewriteOptions, name: string): Promise<void> {
  await rw.dropCopy(options.db.pool, name);
  await withTransaction(options.db, (client) =>
    rw.stopLogging(client, name, options.lockTimeoutMs),
  );
}

/** The swap, tried again when readers held results past the lock timeout. */
async function swap(
  options: RewriteOptions,
  name: string,
  bounds: { from: Date; to: Date },
): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    try {
      const started = Date.now();
      const carried = await withTransaction(options.db, async (client) => {
        // The lease renewed in the swap's transaction: a pass that took over cannot have
        // dropped this rewrite's trigger unseen.
        await options.renew(client);
        if ((await rw.loggedWrites(client, name)) > MAX_CARRIED) return null;
        return rw.swapIn(client, name, bounds, options.lockTimeoutMs);
      });
      if (carried === null) {
        options.log.warn({ partition: name }, "retention: too many writes during the rewrite");
        await cleanUp(options, name);
        return false;
      }
      // The swap's transaction, its wait for results' lock included.
      const swapMs = Date.now() - started;
      options.log.info({ partition: name, carried, swapMs }, "retention: a month rewritten");
      return true;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code !== LOCK_NOT_AVAILABLE || attempt >= SWAP_TRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }
}
