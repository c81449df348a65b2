import type pg from "pg";

/**
 * Triage's writes at ingest (issue 34): the runs it has read (triage_runs), the failure groups
 * (failure_groups) and each failed result's group (result_fingerprints). Set-based: one statement
 * per table for a whole run.
 */

export interface TriageRun {
  id: number;
  key: string;
  family: string;
  executor: string | null;
  branch: string | null;
  at: Date;
}

export async function upsertTriageRun(client: pg.ClientBase, run: TriageRun): Promise<void> {
  await client.query(
    `INSERT INTO triage_runs (run_id, run_key, family, executor, branch, run_at)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (run_id) DO UPDATE SET triaged_at = now()`,
    [run.id, run.key, run.family, run.executor, run.branch, run.at],
  );
}

export interface GroupInput {
  fingerprint: string;
  errorType: string;
  message: string;
  frame: string | null;
  sampleMessage: string | null;
  sampleStack: string | null;
  resultId: number;
  seenAt: Date;
}

/**
 * Makes the groups that are new and moves first and last seen of the others; returns every
 * fingerprint's group id. Rows go in fingerprint order, so two uploads sharing groups lock
 * them in the same order and never deadlock.
 */
export async function upsertGroups(
  client: pg.ClientBase,
  runId: number,
  groups: readonly GroupInput[],
): Promise<Map<string, number>> {
  if (groups.length === 0) return new Map();
  const sorted = [...groups].sort((a, b) => (a.fingerprint < b.fingerprint ? -1 : 1));
  const { rows } = await client.query<{ id: number; fingerprint: string }>(
    `INSERT INTO failure_groups (fingerprint, error_type, message, frame, sample_message,
                                 sample_stack, first_run_id, first_result_id, first_seen_at,
                                 last_seen_at)
     SELECT g.fingerprint, g.error_type, g.message, g.frame, g.sample_message, g.sample_stack,
            $9::bigint, g.result_id, g.seen_at, g.seen_at
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
                 $7::bigint[], $8::timestamptz[])
          WITH ORDINALITY AS g(fingerprint, error_type, message, frame, sample_message,
                               sample_stack, result_id, seen_at, n)
     ORDER BY g.n
     ON CONFLICT (fingerprint) DO UPDATE SET
       last_seen_at = greatest(failure_groups.last_seen_at, excluded.last_seen_at),
       first_run_id = CASE WHEN excluded.first_seen_at < failure_groups.first_seen_at
                           THEN excluded.first_run_id ELSE failure_groups.first_run_id END,
       first_result_id = CASE WHEN excluded.first_seen_at < failure_groups.first_seen_at
                              THEN excluded.first_result_id ELSE failure_groups.first_result_id END,
       first_seen_at = least(failure_groups.first_seen_at, excluded.first_seen_at)
     RETURNING id::float8 AS id, fingerprint`,
    [
      sorted.map((g) => g.fingerprint),
      sorted.map((g) => g.errorType),
      sorted.map((g) => g.message),
      sorted.map((g) => g.frame),
      sorted.map((g) => g.sampleMessage),
      sorted.map((g) => g.sampleStack),
      sorted.map((g) => g.resultId),
      sorted.map((g) => g.seenAt),
      runId,
    ],
  );
  return new Map(rows.map((row) => [row.fingerprint, row.id]));
}

export interface FingerprintRow {
  resultId: number;
  testId: number;
  groupId: number;
  family: string;
  platform: string | null;
  branch: string | null;
  site: string | null;
  seenAt: Date;
}

/**
 * The run's failed results and their groups, exactly `rows`: a result that is no longer a final
 * failure (a later attempt passed, appended to the run) leaves; its decisions stay in history.
 */
export async function replaceRunFingerprints(
  client: pg.ClientBase,
  runId: number,
  rows: readonly FingerprintRow[],
): Promise<void> {
  const ids = rows.map((row) => row.resultId);
  await client.query(
    `DELETE FROM result_fingerprints WHERE run_id = $1 AND NOT (result_id = ANY($2::bigint[]))`,
    [runId, ids],
  );
  if (rows.length === 0) return;
  await client.query(
    `INSERT INTO result_fingerprints (result_id, run_id, test_id, group_id, family, platform,
                                      branch, nora_site, seen_at)
     SELECT r.result_id, $1, r.test_id, r.group_id, r.family, r.platform, r.branch, r.site, r.seen_at
     FROM unnest($2::bigint[], $3::bigint[], $4::bigint[], $5::text[], $6::text[], $7::text[],
                 $8::text[], $9::timestamptz[])
          AS r(result_id, test_id, group_id, family, platform, branch, site, seen_at)
     ON CONFLICT (result_id) DO UPDATE SET group_id = excluded.group_id`,
    [
      runId,
      ids,
      rows.map((row) => row.testId),
      rows.map((row) => row.groupId),
      rows.map((row) => row.family),
      rows.map((row) => row.platform),
      rows.map((row) => row.branch),
      rows.map((row) => row.site),
      rows.map((row) => row.seenAt),
    ],
  );
}

/** Whether triage has read this run (the backfill skips those). */
export async function triagedRunIds(
  client: pg.ClientBase,
  runIds: readonly number[],
): Promise<Set<number>> {
  const { rows } = await client.query<{ run_id: number }>(
    `SELECT run_id::float8 AS run_id FROM triage_runs WHERE run_id = ANY($1::bigint[])`,
    [runIds],
  );
  return new Set(rows.map((row) => row.run_id));
}

/**
 * Forgets everything triage derived (groups, fingerprints, decisions, runs read). Only the demo
 * calls it, on a store it has just filled, after dating its runs in the past.
 */
export async function forgetAll(client: pg.ClientBase): Promise<void> {
  await client.query(
    "TRUNCATE defect_decisions, result_fingerprints, failure_groups, triage_runs RESTART IDENTITY",
  );
}
