import type pg from "pg";
import { numberArray, textArray } from "../../db/array-literal.js";

/**
 * Triage's writes at ingest (issue 34): the runs it has read (triage_runs), the failure groups
 * (failure_groups) and each failed result's group (result_fingerprints). Set-based: a few
 * statements for a whole run, whatever its size (docs/performance.md, "Triage").
 */

export interface TriageRun {
  id: number;
  key: string;
  family: string;
  executor: string | null;
  branch: string | null;
  place: string | null;
  at: Date;
}

/** Records that triage reads the run; answers whether it is the first time. */
export async function upsertTriageRun(client: pg.ClientBase, run: TriageRun): Promise<boolean> {
  const { rows } = await client.query<{ first: boolean }>(
    `INSERT INTO triage_runs (run_id, run_key, family, executor, branch, place, run_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (run_id) DO UPDATE SET triaged_at = now()
     RETURNING (xmax = 0) AS first`,
    [run.id, run.key, run.family, run.executor, run.branch, run.place, run.at],
  );
  return rows[0]?.first ?? false;
}

export interface GroupInput {
  fingerprint: string;
  errorType: string;
  message: string;
  frame: string | null;
  /** Its first occurrence (the group's sample is read from it: triage.service.ts, sampleOf). */
  resultId: number;
  seenAt: Date;
}

export interface FingerprintRow {
  resultId: number;
  testId: number;
  /** Its group's fingerprint (one of the groups given with it). */
  fingerprint: string;
  platform: string | null;
  branch: string | null;
  site: string | null;
  seenAt: Date;
}

/**
 * Files a run's failed results into their groups: makes the groups that are new, moves first seen
 * of a known group this run saw earlier (a backfilled older run), then makes `rows` exactly the
 * run's fingerprints. A known group's row is otherwise not written: a nightly upload of 100k
 * tests meets thousands of known causes, and rewriting each group's row (its last seen) was most
 * of triage's step (docs/performance.md, "Session 37: known causes not rewritten"); a group's
 * last seen is read from its newest occurrence instead (groups.repo.ts, lastSeenOf). A result
 * that is no longer a final failure (a later attempt passed, appended to the run) leaves; its
 * decisions stay in history. `firstTime`: the run has no fingerprints yet (nothing to remove or
 * update).
 *
 * Two statements, whatever the number of failures. The second starts after the first has made
 * the groups, so it finds every group of the run: its own, and one another upload made at the
 * same moment (ON CONFLICT DO NOTHING waits for that upload's transaction, and the second
 * statement's snapshot sees what it committed). Groups are made and locked in fingerprint order,
 * so two uploads sharing groups never deadlock.
 */
export async function storeRunFingerprints(
  client: pg.ClientBase,
  run: { id: number; family: string; firstTime: boolean },
  groups: readonly GroupInput[],
  rows: readonly FingerprintRow[],
): Promise<void> {
  const sorted = [...groups].sort((a, b) => (a.fingerprint < b.fingerprint ? -1 : 1));
  const fingerprints = textArray(sorted.map((g) => g.fingerprint));
  const firstResults = numberArray(sorted.map((g) => g.resultId));
  const firstSeen = numberArray(sorted.map((g) => g.seenAt.getTime()));
  // One array per column, unnested side by side: PostgreSQL reads arrays of short values
  // several times faster than json_to_recordset, which built a table of keys for every row
  // (140 ms of a 100k-test upload's 10,000 failures: docs/performance.md, "Triage"); the
  // literals are built here (db/array-literal.ts). Times go as epoch milliseconds, the
  // precision the read gave them.
  await client.query(
    `INSERT INTO failure_groups (fingerprint, error_type, message, frame, first_run_id,
                                 first_result_id, first_seen_at, last_seen_at)
     SELECT g.fingerprint, g.error_type, g.message, g.frame, $1::bigint, g.result_id,
            to_timestamp(g.seen_ms / 1000), to_timestamp(g.seen_ms / 1000)
     FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::float8[])
            WITH ORDINALITY AS g(fingerprint, error_type, message, frame, result_id, seen_ms, n)
     ORDER BY g.n
     ON CONFLICT (fingerprint) DO NOTHING`,
    [
      run.id,
      fingerprints,
      textArray(sorted.map((g) => g.errorType)),
      textArray(sorted.map((g) => g.message)),
      textArray(sorted.map((g) => g.frame)),
      firstResults,
      firstSeen,
    ],
  );
  const remove = run.firstTime
    ? ""
    : `, gone AS (DELETE FROM result_fingerprints
                  WHERE run_id = $1 AND result_id <> ALL($6::bigint[]))`;
  const onConflict = run.firstTime
    ? ""
    : "ON CONFLICT (result_id) DO UPDATE SET group_id = excluded.group_id";
  await client.query(
    `WITH earlier AS (
       SELECT g.id, e.result_id, to_timestamp(e.seen_ms / 1000) AS seen_at
       FROM unnest($3::text[], $4::bigint[], $5::float8[]) AS e(fingerprint, result_id, seen_ms)
       JOIN failure_groups g ON g.fingerprint = e.fingerprint
       WHERE to_timestamp(e.seen_ms / 1000) < g.first_seen_at
       ORDER BY g.fingerprint
       FOR UPDATE OF g
     ),
     moved AS (
       UPDATE failure_groups g
       SET first_run_id = $1, first_result_id = e.result_id, first_seen_at = e.seen_at
       FROM earlier e WHERE g.id = e.id
     )${remove}
     INSERT INTO result_fingerprints (result_id, run_id, test_id, group_id, family, platform,
                                      branch, nora_site, seen_at)
     SELECT r.result_id, $1, r.test_id, g.id, $2, r.platform, r.branch, r.site,
            to_timestamp(r.seen_ms / 1000)
     FROM unnest($6::bigint[], $7::bigint[], $8::text[], $9::text[], $10::text[],
                 $11::text[], $12::float8[])
            AS r(result_id, test_id, fingerprint, platform, branch, site, seen_ms)
     JOIN failure_groups g ON g.fingerprint = r.fingerprint
     ${onConflict}`,
    [
      run.id,
      run.family,
      fingerprints,
      firstResults,
      firstSeen,
      numberArray(rows.map((r) => r.resultId)),
      numberArray(rows.map((r) => r.testId)),
      textArray(rows.map((r) => r.fingerprint)),
      textArray(rows.map((r) => r.platform)),
      textArray(rows.map((r) => r.branch)),
      textArray(rows.map((r) => r.site)),
      numberArray(rows.map((r) => r.seenAt.getTime())),
    ],
  );
}

/** Which of these runs triage has read. */
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
 * Forgets everything triage derived (groups, fingerprints, decisions, runs read: the backfill
 * after it reads them all). Only the demo calls it, on a store it has just filled, after dating
 * its runs in the past.
 */
export async function forgetAll(client: pg.ClientBase): Promise<void> {
  await client.query(
    `TRUNCATE defect_decisions, result_fingerprints, failure_groups, triage_runs
     RESTART IDENTITY`,
  );
}
