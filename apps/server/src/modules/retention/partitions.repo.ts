import type pg from "pg";

/** A pool or a client in a transaction: batches run on either. */
type Queryable = Pick<pg.Pool | pg.PoolClient, "query">;
import { rollUpSql } from "./retention.repo.js";
import { HAS_STEPS, STEPS_BYTES, textsPartitionOf } from "../../db/results-sql.js";

/**
 * The layout of `results` as PostgreSQL reports it, and what retention measures and removes by
 * the table rather than by the row: its monthly partitions when it is partitioned (found through
 * pg_inherits, whatever they are named), sizes for the dry run's estimates.
 */

export interface Partition {
  name: string;
  /** The range's bounds, from the catalogue's partition bound; null for a DEFAULT partition. */
  from: Date | null;
  to: Date | null;
  bytes: number;
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** "FOR VALUES FROM ('2025-01-01 00:00:00+00') TO ('2025-02-01 00:00:00+00')" -> its dates. */
export function parseBound(bound: string): { from: Date | null; to: Date | null } {
  const match = /FROM \('([^']+)'\) TO \('([^']+)'\)/.exec(bound);
  if (!match) return { from: null, to: null };
  const from = new Date(match[1]!);
  const to = new Date(match[2]!);
  return Number.isNaN(from.getTime()) || Number.isNaN(to.getTime())
    ? { from: null, to: null }
    : { from, to };
}

/** The partitions of `results`, oldest first; none when it is a plain table. */
export async function resultPartitions(client: Queryable): Promise<Partition[]> {
  const { rows } = await client.query<{ name: string; bound: string; bytes: number }>(
    `SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound,
            pg_total_relation_size(c.oid)::float8 AS bytes
     FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = to_regclass('results')`,
  );
  return rows
    .map((row) => ({ name: row.name, bytes: row.bytes, ...parseBound(row.bound) }))
    .sort((a, b) => (a.from?.getTime() ?? Infinity) - (b.from?.getTime() ?? Infinity));
}

/** The runs with results in one partition. */
export async function partitionRunIds(client: Queryable, name: string): Promise<number[]> {
  const { rows } = await client.query<{ id: number }>(
    `SELECT DISTINCT run_id::float8 AS id FROM ${quote(name)}`,
  );
  return rows.map((row) => row.id);
}

/**
 * Rolls the partition's final results up into retention_test_days and detaches it, in one
 * transaction (the caller's): the roll-up and the detach commit together. The detach waits at
 * most `lockTimeoutMs` for readers of `results` and fails otherwise (retried the next night).
 */
export async function rollUpAndDetach(
  client: Queryable,
  name: string,
  lockTimeoutMs: number,
): Promise<void> {
  await client.query(`SET LOCAL statement_timeout = 0`);
  await client.query(rollUpSql(quote(name)));
  await client.query(`SET LOCAL lock_timeout = ${Math.round(lockTimeoutMs)}`);
  await client.query(`ALTER TABLE results DETACH PARTITION ${quote(name)}`);
  // The month's texts (migration 0216) go with it, detached under the same wait.
  const texts = textsPartitionOf(name);
  const { rows } = await client.query<{ attached: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM pg_inherits
       WHERE inhparent = to_regclass('result_texts') AND inhrelid = to_regclass($1)) AS attached`,
    [texts ?? ""],
  );
  if (texts && rows[0]!.attached) {
    await client.query(`ALTER TABLE result_texts DETACH PARTITION ${quote(texts)}`);
  }
}

/**
 * Drops a partition detached from `results` (its rows are no table's any more), and its
 * month's texts (result_texts_pYYYYMM, migration 0216), which only that month's results referred
 * to; detached by rollUpAndDetach (dropped here even if still attached, as a pass stopped
 * between the two may leave it).
 */
export async function dropDetached(client: Queryable, name: string): Promise<void> {
  await client.query(`DROP TABLE IF EXISTS ${quote(name)}`);
  const texts = textsPartitionOf(name);
  if (texts) await client.query(`DROP TABLE IF EXISTS ${quote(texts)}`);
}

/** API requests of the runs, a batch at a time (they hang off results, which a drop skips). */
export async function deleteApiRequests(
  client: Queryable,
  runIds: readonly number[],
  limit: number,
): Promise<number> {
  const { rowCount } = await client.query(
    `DELETE FROM api_requests WHERE id IN (
       SELECT id FROM api_requests WHERE run_id = ANY($1::bigint[]) LIMIT $2)`,
    [runIds, limit],
  );
  return rowCount ?? 0;
}

export async function databaseBytes(client: Queryable): Promise<number> {
  const { rows } = await client.query<{ bytes: number }>(
    `SELECT pg_database_size(current_database())::float8 AS bytes`,
  );
  return rows[0]!.bytes;
}

/** Index bytes of `results` (all partitions) per row: a removed row's share of the indexes. */
export async function indexBytesPerResult(client: Queryable): Promise<number> {
  const { rows } = await client.query<{ bytes: number; rows: number }>(
    `SELECT coalesce(sum(pg_indexes_size(c.oid)), 0)::float8 AS bytes,
            coalesce(sum(greatest(c.reltuples, 0)), 0)::float8 AS rows
     FROM pg_class c
     WHERE c.oid = to_regclass('results')
        OR c.oid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = to_regclass('results'))`,
  );
  const { bytes, rows: count } = rows[0]!;
  return count > 0 ? bytes / count : 0;
}

export interface Estimate {
  rows: number;
  bytes: number;
}

/** Results of the runs with one of `statuses`: how many, and their own bytes. */
export async function estimateResults(
  client: Queryable,
  runIds: readonly number[],
  statuses: readonly string[],
): Promise<Estimate> {
  const { rows } = await client.query<Estimate>(
    `SELECT count(*)::float8 AS rows, coalesce(sum(pg_column_size(r.*)), 0)::float8 AS bytes
     FROM results r WHERE r.run_id = ANY($1::bigint[]) AND r.status = ANY($2)`,
    [runIds, statuses],
  );
  return rows[0]!;
}

/** Results of the runs with one of `statuses` that still have steps, and the steps' bytes. */
export async function estimateSteps(
  client: Queryable,
  runIds: readonly number[],
  statuses: readonly string[],
): Promise<Estimate> {
  const { rows } = await client.query<Estimate>(
    `SELECT count(*)::float8 AS rows,
            coalesce(sum(${STEPS_BYTES}), 0)::float8 AS bytes
     FROM results
     WHERE run_id = ANY($1::bigint[]) AND status = ANY($2) AND ${HAS_STEPS}`,
    [runIds, statuses],
  );
  return rows[0]!;
}

/** Attachments of those results: how many, and the bytes of their objects. */
export async function estimateAttachments(
  client: Queryable,
  runIds: readonly number[],
  statuses: readonly string[],
): Promise<Estimate> {
  const { rows } = await client.query<Estimate>(
    `SELECT count(*)::float8 AS rows, coalesce(sum(a.size), 0)::float8 AS bytes
     FROM attachments a JOIN results r ON r.id = a.result_id
     WHERE r.run_id = ANY($1::bigint[]) AND r.status = ANY($2)`,
    [runIds, statuses],
  );
  return rows[0]!;
}
