import { withTransaction, type Db } from "../db/pool.js";
import type pg from "pg";
import { TEXT_REFS, textsOfResult, textsPartitionOf } from "../db/results-sql.js";
import { partitionName } from "../modules/storage/partitions.repo.js";

/** The few statements the demo loader runs itself; results only ever arrive through ingestion. */

/** True once any run is stored: the demo is only ever loaded into an empty store. */
export async function hasRuns(db: Db): Promise<boolean> {
  const { rows } = await db.pool.query<{ any: boolean }>(
    "SELECT EXISTS (SELECT 1 FROM runs) AS any",
  );
  return rows[0]?.any ?? false;
}

export interface RunTimes {
  key: string;
  createdAt: Date;
  /** Load runs only: their report has no per-result times to take these from. */
  startedAt?: Date;
  finishedAt?: Date;
}

/**
 * Dates runs in the past. Ingestion stamps created_at with the upload time and the metadata has
 * no date field, so the demo's history is placed on its days here; started_at and finished_at
 * of test runs already come from their results' times.
 */
export async function setRunTimes(db: Db, times: readonly RunTimes[]): Promise<void> {
  if (times.length === 0) return;
  await withTransaction(db, async (client) => {
    // Uploads wait (their texts' inserts) until this ends: a text left unreferenced here may
    // be one an upload is about to refer to; once it has committed, its results are seen.
    await client.query("LOCK TABLE result_texts IN SHARE ROW EXCLUSIVE MODE");
    const keys = times.map((t) => t.key);
    await client.query(
      `UPDATE runs SET created_at = t.created_at,
         started_at = coalesce(t.started_at, runs.started_at),
         finished_at = coalesce(t.finished_at, runs.finished_at)
       FROM unnest($1::text[], $2::timestamptz[], $3::timestamptz[], $4::timestamptz[])
         AS t(key, created_at, started_at, finished_at)
       WHERE runs.test_run_key = t.key`,
      [
        keys,
        times.map((t) => t.createdAt),
        times.map((t) => t.startedAt ?? null),
        times.map((t) => t.finishedAt ?? null),
      ],
    );
    // A result's run_at is its run's created_at (migration 0191): its rows move to that month,
    // and the texts they refer to (migration 0216) are stored in that month too.
    await client.query(
      `INSERT INTO result_texts (month, hash, body)
       SELECT date_trunc('month', runs.created_at, 'UTC'), t.hash, t.body
       FROM runs JOIN results r ON r.run_id = runs.id
       JOIN result_texts t ON ${textsOfResult("r", "t")}
       WHERE runs.test_run_key = ANY($1::text[]) AND r.run_at <> runs.created_at
       ON CONFLICT DO NOTHING`,
      [keys],
    );
    const { rows } = await client.query<{ month: Date }>(
      `SELECT DISTINCT date_trunc('month', r.run_at, 'UTC') AS month
       FROM runs JOIN results r ON r.run_id = runs.id
       WHERE runs.test_run_key = ANY($1::text[]) AND r.run_at <> runs.created_at`,
      [keys],
    );
    await client.query(
      `UPDATE results SET run_at = runs.created_at FROM runs
       WHERE results.run_id = runs.id AND runs.test_run_key = ANY($1::text[])
         AND results.run_at <> runs.created_at`,
      [keys],
    );
    // The month the runs were uploaded in keeps their texts, now copied to the runs' months,
    // until retention drops it a year on: those no result of that month refers to go (about
    // a quarter of a fresh demo's database).
    for (const { month } of rows) await deleteUnreferencedTexts(client, month);
  });
}

async function deleteUnreferencedTexts(client: pg.PoolClient, month: Date): Promise<void> {
  const refs = TEXT_REFS.map((ref) => `r.${ref}`).join(", ");
  await client.query(
    `DELETE FROM result_texts t
     WHERE t.month = $1 AND t.hash NOT IN (
       SELECT ref FROM results r CROSS JOIN LATERAL unnest(ARRAY[${refs}]) AS ref
       WHERE r.run_at >= $1 AND r.run_at < $1 + interval '1 month' AND ref IS NOT NULL)`,
    [month],
  );
}

/**
 * Rewrites the month's partitions of results and result_texts (VACUUM FULL): the demo's runs
 * were all uploaded this month and dated back into their own, which left the month's tables
 * mostly dead rows and freed texts (over 40% of a fresh demo's database) that only later uploads
 * of the month would reuse. Locks the two tables for the moment it takes (what stays in the
 * month: a few thousand rows). Dead rows a running transaction may still see are kept.
 */
export async function compactMonth(db: Db, month: Date): Promise<void> {
  const name = partitionName(month);
  const texts = textsPartitionOf(name)!;
  const { rows } = await db.pool.query<{ results: boolean; texts: boolean }>(
    "SELECT to_regclass($1) IS NOT NULL AS results, to_regclass($2) IS NOT NULL AS texts",
    [name, texts],
  );
  const tables = [rows[0]!.results && name, rows[0]!.texts && texts].filter(Boolean);
  // Names made by partitionName from a date, not input: safe to place in the statement.
  if (tables.length > 0) await db.pool.query(`VACUUM (FULL) ${tables.join(", ")}`);
}

export interface StoredCounts {
  runs: number;
  results: number;
  attachments: number;
  apiRequests: number;
  tests: number;
}

/** What the store holds, for the loader's final log line. */
export async function storedCounts(db: Db): Promise<StoredCounts> {
  const { rows } = await db.pool.query<StoredCounts>(
    `SELECT (SELECT count(*) FROM runs)::int AS runs,
            (SELECT count(*) FROM results)::int AS results,
            (SELECT count(*) FROM attachments)::int AS attachments,
            (SELECT count(*) FROM api_requests)::int AS "apiRequests",
            (SELECT count(*) FROM tests)::int AS tests`,
  );
  return rows[0]!;
}

/**
 * The last run posted before the first run dated since `before` (ids: the demo posts its runs
 * oldest first). Not the newest run dated before it: a few runs are posted last and dated in
 * the past (a renamed job's, the OQ builds'), and taking their ids left no run after the cutoff.
 */
export async function lastRunIdBefore(db: Db, before: Date): Promise<number> {
  const { rows } = await db.pool.query<{ id: number | null }>(
    `SELECT coalesce((SELECT min(id) FROM runs WHERE created_at >= $1) - 1,
                     (SELECT max(id) FROM runs))::float8 AS id`,
    [before],
  );
  return rows[0]?.id ?? 0;
}
