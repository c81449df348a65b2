import type pg from "pg";
import { textsPartitionOf } from "../../db/results-sql.js";

/*
 * The monthly partitions of results (migration 0191), named test_results_pYYYYMM and holding the
 * results whose run_at (their run's created_at) falls in that month, UTC:
 * FOR VALUES FROM ('YYYY-MM-01 00:00:00+00') TO (the next month's first). test_results_pdefault
 * takes results of a month without a partition. Retention drops a whole month's table; this
 * module creates them ahead.
 */

type Queryable = Pick<pg.Pool, "query"> | Pick<pg.PoolClient, "query">;

export interface ResultPartition {
  /** test_results_pYYYYMM, or test_results_pdefault. */
  name: string;
  /** First instant of its month, UTC; null for the default partition. */
  from: Date | null;
  /** First instant of the next month (exclusive); null for the default partition. */
  to: Date | null;
  /** Heap, TOAST and indexes. */
  bytes: number;
}

/** Every partition of results, months in order, the default partition last. */
export async function listResultPartitions(db: Queryable): Promise<ResultPartition[]> {
  const { rows } = await db.query<{ name: string; bound: string; bytes: string }>(
    `SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound,
            pg_total_relation_size(c.oid) AS bytes
     FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = 'results'::regclass`,
  );
  const partitions = rows.map((row) => {
    // FOR VALUES FROM ('2026-09-01 00:00:00+00') TO ('2026-10-01 00:00:00+00'), or DEFAULT;
    // the text is in the session's time zone, which Date reads with its offset.
    const range = /FROM \('([^']+)'\) TO \('([^']+)'\)/.exec(row.bound);
    return {
      name: row.name,
      from: range ? new Date(range[1]!) : null,
      to: range ? new Date(range[2]!) : null,
      bytes: Number(row.bytes),
    };
  });
  return partitions.sort(
    (a, b) => (a.from?.getTime() ?? Infinity) - (b.from?.getTime() ?? Infinity),
  );
}

/** The partition's name for the month holding `instant`, UTC. */
export function partitionName(instant: Date): string {
  const month = String(instant.getUTCMonth() + 1).padStart(2, "0");
  return `test_results_p${instant.getUTCFullYear()}${month}`;
}

function monthStart(instant: Date, add = 0): Date {
  return new Date(Date.UTC(instant.getUTCFullYear(), instant.getUTCMonth() + add, 1));
}

/**
 * Makes the partition of the month holding `instant` if it is missing, moving into it the rows
 * the default partition holds for that month. Created apart and attached, which locks results
 * only against schema changes (SHARE UPDATE EXCLUSIVE), not reads and writes, when there is
 * nothing to move (the months made ahead); rows to move lock reads out (lockReadsWhileMoving).
 * Run in a transaction. Returns how many rows moved, or null if the partition existed.
 */
export async function createMonthPartition(
  client: pg.PoolClient,
  instant: Date,
): Promise<number | null> {
  const name = partitionName(instant);
  const from = monthStart(instant).toISOString();
  const to = monthStart(instant, 1).toISOString();
  // Two servers at once: the second waits, then finds the partition made.
  await client.query("SELECT pg_advisory_xact_lock(hashtext('results partitions'))");
  await lockReadsWhileMoving(client, from, to);
  await createTextsPartition(client, textsPartitionOf(name)!, from, to);
  const { rows } = await client.query<{ exists: boolean }>(
    "SELECT to_regclass($1) IS NOT NULL AS exists",
    [name],
  );
  if (rows[0]!.exists) return null;
  await client.query(
    `CREATE TABLE ${name} (LIKE results INCLUDING DEFAULTS INCLUDING CONSTRAINTS
       INCLUDING STORAGE INCLUDING COMPRESSION)`,
  );
  return moveAndAttach(client, "results", name, from, to);
}

/**
 * The same for result_texts (migration 0216): the month's texts partition, with the texts the
 * default partition holds for it.
 */
async function createTextsPartition(client: pg.PoolClient, name: string, from: string, to: string) {
  const { rows } = await client.query<{ exists: boolean; texts: boolean }>(
    "SELECT to_regclass($1) IS NOT NULL AS exists, to_regclass('result_texts') IS NOT NULL AS texts",
    [name],
  );
  // No result_texts: a layout before migration 0216 (the storage bench loads one).
  if (rows[0]!.exists || !rows[0]!.texts) return;
  await client.query(`CREATE TABLE ${name} (LIKE result_texts INCLUDING DEFAULTS)`);
  await moveAndAttach(client, "result_texts", name, from, to);
}

/**
 * When a default partition holds rows of the month, locks out reads and writes of both tables
 * until the transaction ends. A read planned while the move was under way (it waits for the
 * default partition, locked by the attach) kept a plan without the new partition and found the
 * default emptied: a run read as having no results, and its view kept so (a demo or a restore,
 * whose rows wait in the default partition, opened right after the start). Locked first, the
 * read waits before planning, then plans with the new partition. Both tables in one statement,
 * results first, the order reads take them in. Rare: only rows stored before their month had a
 * partition; a read meanwhile waits for the move (seconds for a demo's months).
 */
async function lockReadsWhileMoving(client: pg.PoolClient, from: string, to: string) {
  // No result_texts: a layout before migration 0216 (the storage bench loads one).
  const { rows: layout } = await client.query<{ texts: boolean }>(
    "SELECT to_regclass('result_texts') IS NOT NULL AS texts",
  );
  const tables = layout[0]!.texts ? (["results", "result_texts"] as const) : (["results"] as const);
  for (const parent of tables) {
    const { defaultPartition, key } = PARTITIONED[parent];
    const { rows } = await client.query<{ held: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM ${defaultPartition} WHERE ${key} >= $1 AND ${key} < $2) AS held`,
      [from, to],
    );
    if (rows[0]!.held) {
      await client.query(`LOCK TABLE ${tables.join(", ")} IN ACCESS EXCLUSIVE MODE`);
      return;
    }
  }
}

/** Each partitioned table's default partition and partition key. */
const PARTITIONED = {
  results: { defaultPartition: "test_results_pdefault", key: "run_at" },
  result_texts: { defaultPartition: "result_texts_pdefault", key: "month" },
} as const;

/**
 * Moves into the new table `name` the rows the default partition of `parent` holds for the month
 * [from, to), then attaches it as that month's partition; returns how many rows moved.
 */
async function moveAndAttach(
  client: pg.PoolClient,
  parent: keyof typeof PARTITIONED,
  name: string,
  from: string,
  to: string,
): Promise<number> {
  const { defaultPartition, key } = PARTITIONED[parent];
  const moved = await client.query(
    `WITH moved AS (
       DELETE FROM ${defaultPartition} WHERE ${key} >= $1 AND ${key} < $2 RETURNING *
     )
     INSERT INTO ${name} SELECT * FROM moved`,
    [from, to],
  );
  await client.query(
    `ALTER TABLE ${parent} ATTACH PARTITION ${name} FOR VALUES FROM ('${from}') TO ('${to}')`,
  );
  return moved.rowCount ?? 0;
}

/** The months from `from` to `to` (both included) that have no partition yet, made. */
export async function ensureMonthPartitions(
  client: pg.PoolClient,
  from: Date,
  to: Date,
): Promise<{ created: string[]; moved: number }> {
  const created: string[] = [];
  let moved = 0;
  for (let month = monthStart(from); month <= to; month = monthStart(month, 1)) {
    const rows = await createMonthPartition(client, month);
    if (rows === null) continue;
    created.push(partitionName(month));
    moved += rows;
  }
  return { created, moved };
}

/**
 * Makes the partition of each month the default partition holds rows of (back at most ten
 * years), moving them there: after a restore, whose results all arrive in the default partition,
 * and daily, for a month a stopped server did not make ahead. Nothing when results is not
 * partitioned (a restore into an older layout). Run in a transaction.
 */
export async function partitionDefaultRows(client: pg.PoolClient): Promise<string[]> {
  const { rows: parted } = await client.query<{ yes: boolean }>(
    "SELECT to_regclass('test_results_pdefault') IS NOT NULL AS yes",
  );
  if (!parted[0]!.yes) return [];
  const { rows } = await client.query<{ month: Date }>(
    `SELECT DISTINCT date_trunc('month', run_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS month
     FROM test_results_pdefault
     WHERE run_at >= now() - interval '10 years' AND run_at < 'infinity'
     ORDER BY 1`,
  );
  const created: string[] = [];
  for (const { month } of rows) {
    if ((await createMonthPartition(client, month)) !== null) created.push(partitionName(month));
  }
  return created;
}
