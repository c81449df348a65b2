import type { LoadEndpointStat, RunMetadata } from "@assay/core";
import type pg from "pg";
import { copyRows } from "./encoding/copy.js";
import type { RunFacts } from "./pipeline/result-rows.js";
import { runAtOfParam } from "../../db/results-sql.js";

export interface RunRow {
  id: number;
  test_run_key: string;
  family: RunMetadata["family"];
  state: "open" | "finished";
  /** created_at as ISO text to the microsecond: its results' run_at (migration 0191). */
  run_at: string;
}

// run_at exactly as stored (a Date would drop the microseconds): results are found by it.
const RUN_ROW = `id, test_run_key, family, state,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS run_at`;

/** Creates the run if the key is new (sharded jobs race here), then locks it for this upload. */
export async function openRunForUpdate(
  client: pg.PoolClient,
  key: string,
  name: string,
  meta: RunMetadata,
  state: "open" | "finished",
): Promise<RunRow> {
  await client.query(
    `INSERT INTO runs (test_run_key, family, test_run_name, state, nora_site, env, baseurl, executor,
       branch, commit, is_next_gen, is_china_region, host, test_file, users, run_time, spawn_rate,
       load_region)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)
     ON CONFLICT (test_run_key) DO NOTHING`,
    [
      key,
      meta.family,
      name,
      state,
      meta.nora_site ?? null,
      meta.env ?? null,
      meta.baseurl ?? null,
      meta.executor ?? null,
      meta.branch ?? null,
      meta.commit ?? null,
      meta.is_next_gen,
      meta.is_china_region,
      meta.host ?? null,
      meta.test_file ?? null,
      meta.users ?? null,
      meta.run_time ?? null,
      meta.spawn_rate ?? null,
      meta.load_region ?? null,
    ],
  );
  const { rows } = await client.query<RunRow & { id: string }>(
    `SELECT ${RUN_ROW} FROM runs WHERE test_run_key = $1 FOR UPDATE`,
    [key],
  );
  const row = rows[0]!;
  return { ...row, id: Number(row.id) };
}

export async function findRunForUpdate(
  client: pg.PoolClient,
  key: string,
): Promise<RunRow | undefined> {
  const { rows } = await client.query<RunRow & { id: string }>(
    `SELECT ${RUN_ROW} FROM runs WHERE test_run_key = $1 FOR UPDATE`,
    [key],
  );
  const row = rows[0];
  return row ? { ...row, id: Number(row.id) } : undefined;
}

/**
 * What a run says of all its results (site, branch, commit, executor, base URL), for results
 * appended to it that do not say it themselves, as an upload's fields are.
 */
export async function runFacts(client: pg.PoolClient, runId: number): Promise<RunFacts> {
  const { rows } = await client.query<Record<string, string | null>>(
    "SELECT nora_site, branch, commit, executor, baseurl FROM runs WHERE id = $1",
    [runId],
  );
  const run = rows[0] ?? {};
  return {
    nora_site: run.nora_site ?? undefined,
    branch: run.branch ?? undefined,
    commit_hash: run.commit ?? undefined,
    executor: run.executor ?? undefined,
    baseurl: run.baseurl ?? undefined,
  };
}

export async function existingTestRunTestIds(
  client: pg.PoolClient,
  runId: number,
): Promise<Set<string>> {
  const { rows } = await client.query<{ test_run_test_id: string }>(
    `SELECT test_run_test_id FROM results WHERE run_id = $1 AND run_at = ${runAtOfParam(1)}`,
    [runId],
  );
  return new Set(rows.map((r) => r.test_run_test_id));
}

export async function setRunState(
  client: pg.PoolClient,
  runId: number,
  state: "open" | "finished",
) {
  await client.query(
    `UPDATE runs SET state = $2,
       finished_at = CASE WHEN $2 = 'finished' THEN coalesce(finished_at, now()) ELSE finished_at END
     WHERE id = $1`,
    [runId, state],
  );
}

/** A load run's real start and length, as its runner measured them (a Locust CSV has neither). */
export async function setLoadTiming(
  client: pg.PoolClient,
  runId: number,
  timing: Pick<RunMetadata, "started_at" | "duration_ms">,
) {
  if (timing.started_at === undefined && timing.duration_ms === undefined) return;
  await client.query(
    `UPDATE runs SET started_at = coalesce($2::timestamptz, started_at),
       duration_ms = coalesce($3::float8, duration_ms)
     WHERE id = $1`,
    [runId, timing.started_at ?? null, timing.duration_ms ?? null],
  );
}

export async function setReportLocation(client: pg.PoolClient, runId: number, location: string) {
  await client.query("UPDATE runs SET report_location = $2 WHERE id = $1", [runId, location]);
}

/** Adds an upload's warnings to its run's, each message once. */
export async function addRunWarnings(client: pg.PoolClient, runId: number, warnings: string[]) {
  if (warnings.length === 0) return;
  await client.query(
    `UPDATE runs SET warnings = warnings || ARRAY(
       SELECT DISTINCT w FROM unnest($2::text[]) w WHERE w <> ALL (runs.warnings))
     WHERE id = $1`,
    [runId, warnings],
  );
}

/** A load report replaces the run's statistics: uploading the same CSV twice changes nothing. */
export async function replaceLoadStats(
  client: pg.PoolClient,
  runId: number,
  stats: readonly LoadEndpointStat[],
) {
  await client.query("DELETE FROM load_stats WHERE run_id = $1", [runId]);
  await copyRows(
    client,
    "load_stats",
    [
      "run_id",
      "method",
      "name",
      "requests",
      "failures",
      "median_ms",
      "p95_ms",
      "p99_ms",
      "average_ms",
      "min_ms",
      "max_ms",
      "requests_per_s",
      "failures_per_s",
      "aggregated",
    ],
    stats.map((s) => [
      runId,
      s.method,
      s.name,
      s.requests,
      s.failures,
      s.median_ms,
      s.p95_ms,
      s.p99_ms,
      s.average_ms,
      s.min_ms,
      s.max_ms,
      s.requests_per_s,
      s.failures_per_s,
      s.aggregated,
    ]),
  );
  const total = stats.find((s) => s.aggregated);
  if (total) {
    await client.query(
      "UPDATE runs SET total = $2::int, passed = $2::int - $3::int, failed = $3::int WHERE id = $1",
      [runId, total.requests, total.failures],
    );
  }
}

export async function runCounts(client: pg.PoolClient, runId: number) {
  const { rows } = await client.query<{
    total: number;
    passed: number;
    failed: number;
    pending: number;
    flaky: number;
  }>("SELECT total, passed, failed, pending, flaky FROM runs WHERE id = $1", [runId]);
  return rows[0]!;
}

/** How long an Idempotency-Key's answer is kept (docs/configuration.md). */
export const IDEMPOTENCY_KEY_HOURS = 24;

/** An Idempotency-Key as sent by one client (a service token or a user). */
export interface IdempotencyKey {
  client: string;
  key: string;
}

/** The answer stored for the key within the last IDEMPOTENCY_KEY_HOURS, or none. */
export async function findIdempotentAnswer(
  client: pg.PoolClient | pg.Pool,
  { client: who, key }: IdempotencyKey,
) {
  const { rows } = await client.query<{
    fingerprint: string;
    status_code: number;
    response: unknown;
  }>(
    `SELECT fingerprint, status_code, response FROM idempotency_keys
     WHERE client = $1 AND key = $2 AND created_at > now() - make_interval(hours => $3)`,
    [who, key, IDEMPOTENCY_KEY_HOURS],
  );
  return rows[0];
}

/** Stores the answer for the key (over an expired one), and forgets every expired key. */
export async function saveIdempotentAnswer(
  client: pg.PoolClient,
  { client: who, key }: IdempotencyKey,
  fingerprint: string,
  statusCode: number,
  response: object,
) {
  await client.query(
    "DELETE FROM idempotency_keys WHERE created_at <= now() - make_interval(hours => $1)",
    [IDEMPOTENCY_KEY_HOURS],
  );
  await client.query(
    `INSERT INTO idempotency_keys (client, key, fingerprint, status_code, response)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (client, key) DO UPDATE SET fingerprint = excluded.fingerprint,
       status_code = excluded.status_code, response = excluded.response, created_at = now()`,
    [who, key, fingerprint, statusCode, JSON.stringify(response)],
  );
}

/** Holds the key for this transaction; false when another upload with the key is under way. */
export async function tryLockIdempotencyKey(
  client: pg.PoolClient,
  { client: who, key }: IdempotencyKey,
): Promise<boolean> {
  const { rows } = await client.query<{ locked: boolean }>(
    "SELECT pg_try_advisory_xact_lock(hashtextextended('idempotency:' || $1 || ':' || $2, 0)) AS locked",
    [who, key],
  );
  return rows[0]?.locked ?? false;
}

/** Holds the key for this transaction, waiting while another transaction holds it. */
export async function lockIdempotencyKey(
  client: pg.PoolClient,
  { client: who, key }: IdempotencyKey,
): Promise<void> {
  await client.query(
    "SELECT pg_advisory_xact_lock(hashtextextended('idempotency:' || $1 || ':' || $2, 0))",
    [who, key],
  );
}
