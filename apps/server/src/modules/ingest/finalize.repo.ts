import type { ResultInput } from "@assay/core";
import type pg from "pg";
import { NOT_PENDING_MESSAGE_SQL, PENDING_MESSAGE_SQL } from "../../db/pending-sql.js";
import type { Ranking, RunTally } from "./pipeline/run-tally.js";
import type { Finalized } from "./pipeline/result-outcomes.js";
import { runAtOfParam } from "../../db/results-sql.js";

/**
 * After an upload, marks which attempt of each test decides its status (the last), flags tests
 * that passed after failing as flaky, and stores the run's counts so lists and charts read them
 * without scanning results. Pending = skipped by the report, or failed with core's PENDING_MARKER.
 * With a tally of everything the run holds (a fresh run), the counts come from it.
 * Returns the ids of the results that stopped being final and of those now flaky: every result
 * is written final and not flaky, so for a fresh run these are all that differ from how its
 * upload wrote them (ResultsWriter.written).
 */
export async function finalizeRun(
  client: pg.PoolClient,
  runId: number,
  { rank = "all", tally }: { rank?: Ranking; tally?: RunTally } = {},
): Promise<Finalized> {
  const finalized = { notFinal: new Set<number>(), flaky: new Set<number>() };
  // Every result is stored final and not flaky; ranking (a sort of the results concerned) is
  // needed only for tests that can have more than one attempt.
  const ranked =
    rank === "none" ? [] : await rankAttempts(client, runId, rank === "all" ? null : rank);
  for (const changed of ranked) {
    if (!changed.is_final) finalized.notFinal.add(Number(changed.id));
    if (changed.flaky) finalized.flaky.add(Number(changed.id));
  }
  if (rank === "all" || !tally) {
    await storeRunCounts(client, runId);
    return finalized;
  }
  for (const changed of ranked) {
    if (!changed.is_final) {
      tally.removeAttempt({ ...changed, error_message: changed.error_message ?? undefined });
    }
    if (changed.flaky) tally.flaky++;
  }
  await storeRunCounts(client, runId, tally);
  return finalized;
}

interface RankedRow {
  /** bigint, as pg gives it: text. */
  id: string;
  status: ResultInput["status"];
  error_message: string | null;
  duration_ms: number;
  is_final: boolean;
  flaky: boolean;
}

/**
 * Ranks the attempts of the run's results, or only the results `attempts` names by id (a fresh
 * run with a few retries: 1% of a 100k-test run). Returns the results whose flags changed, as
 * they are now.
 */
async function rankAttempts(
  client: pg.PoolClient,
  runId: number,
  attempts: readonly number[] | null,
): Promise<RankedRow[]> {
  const { rows } = await client.query<RankedRow>(
    attempts ? RANK_NAMED : RANK_ALL,
    attempts ? [runId, attempts] : [runId],
  );
  return rows;
}

/*
 * A test's attempts in the run. A test known by its identity (file, suite path and name) has
 * the same three in every result, stored (before migration 0221) or left to it (NULL since), so
 * its id alone groups them, also in a run holding both kinds of row (one stored before 0221,
 * rerun after). A test with an explicit id may be reported under several names at once, each
 * its own test in the run (`own`): its results keep their own three (never NULL).
 */
const OWN = `(name IS NOT NULL AND NOT EXISTS (SELECT FROM tests t WHERE t.id = results.test_id
                                                 AND t.identity IS NOT NULL))`;
const WINDOW = `WINDOW w AS (PARTITION BY test_id, CASE WHEN own THEN file END,
                      CASE WHEN own THEN suite_path END, CASE WHEN own THEN name END
                    ORDER BY attempt DESC, id DESC
                    ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)`;

const RANK_ALL = `WITH ranked AS (
       SELECT id, status,
              row_number() OVER w = 1 AS last_attempt,
              bool_or(status = 'failed') OVER w AS ever_failed
       FROM (SELECT id, status, attempt, test_id, file, suite_path, name, ${OWN} AS own
             FROM results WHERE run_id = $1 AND run_at = ${runAtOfParam(1)}) a
       ${WINDOW}
     )
     UPDATE results r
     SET is_final = ranked.last_attempt,
         flaky = ranked.last_attempt AND ranked.status = 'passed' AND ranked.ever_failed
     FROM ranked
     WHERE r.id = ranked.id AND r.run_id = $1 AND r.run_at = ${runAtOfParam(1)}
       AND (r.is_final IS DISTINCT FROM ranked.last_attempt
            OR r.flaky IS DISTINCT FROM (ranked.last_attempt AND ranked.status = 'passed' AND ranked.ever_failed))
     RETURNING r.id, r.status, r.error_message, r.duration_ms, r.is_final, r.flaky`;

/*
 * The named results ($2: ids this upload took from results_id_seq for its rows of run $1, so
 * their run needs no check), each found by one probe of results_id_idx and updated where it lies
 * (its partition and ctid, read in this statement's snapshot): a LATERAL subquery with a LIMIT is
 * never made a join. Written as a join on ids, the plan rested on the statistics, which a
 * month's partition filling with its first runs does not have yet: the planner read the whole
 * run twice through its unique key, 100k rows for 1,000 attempts (EXPLAIN ANALYZE 1.3 s against
 * 47 ms probed; docs/performance.md, "Session 34"). With run_id in the probe, the planner chose
 * the run's unique key again, the whole run for each result.
 */
const RANK_NAMED = `WITH ranked AS (
       SELECT a.tableoid, a.ctid, a.status, a.is_final, a.flaky,
              row_number() OVER w = 1 AS last_attempt,
              bool_or(a.status = 'failed') OVER w AS ever_failed
       FROM unnest($2::bigint[]) AS named(result_id)
       CROSS JOIN LATERAL (
         SELECT tableoid, ctid, id, status, is_final, flaky, test_id, file, suite_path, name, attempt,
                ${OWN} AS own
         FROM results
         WHERE id = named.result_id AND run_at = ${runAtOfParam(1)}
         LIMIT 1
       ) a
       ${WINDOW}
     )
     UPDATE results r
     SET is_final = ranked.last_attempt,
         flaky = ranked.last_attempt AND ranked.status = 'passed' AND ranked.ever_failed
     FROM ranked
     WHERE r.tableoid = ranked.tableoid AND r.ctid = ranked.ctid
       AND r.run_at = ${runAtOfParam(1)}
       AND (ranked.is_final IS DISTINCT FROM ranked.last_attempt
            OR ranked.flaky IS DISTINCT FROM (ranked.last_attempt AND ranked.status = 'passed' AND ranked.ever_failed))
     RETURNING r.id, r.status, r.error_message, r.duration_ms, r.is_final, r.flaky`;

/** The run's counts from its final results; its start and end from all its attempts. */
const COUNTED = `
  SELECT count(*) FILTER (WHERE is_final)::int AS total,
         count(*) FILTER (WHERE is_final AND status = 'passed')::int AS passed,
         count(*) FILTER (WHERE is_final AND status = 'failed' AND ${NOT_PENDING_MESSAGE_SQL})::int AS failed,
         count(*) FILTER (WHERE is_final AND (status = 'skipped' OR (status = 'failed' AND ${PENDING_MESSAGE_SQL})))::int AS pending,
         count(*) FILTER (WHERE is_final AND flaky)::int AS flaky,
         coalesce(sum(duration_ms) FILTER (WHERE is_final), 0) AS duration_ms,
         min(start_time) AS started_at,
         max(end_time) AS finished_at
  FROM results WHERE run_id = $1 AND run_at = ${runAtOfParam(1)}`;

/** The same counts, from a RunTally. */
const TALLIED = `
  SELECT $2::int AS total, $3::int AS passed, $4::int AS failed, $5::int AS pending,
         $6::int AS flaky, $7::float8 AS duration_ms, $8::timestamptz AS started_at,
         $9::timestamptz AS finished_at`;

/**
 * Tests' time past this (a year) is no run's length: a report's garbled durations (a fuzzed
 * `time`) leave the end to the upload's time rather than overflowing PostgreSQL's interval.
 */
const LONGEST_RUN_MS = 365 * 24 * 3_600_000;

/**
 * A finished run whose results date their starts but not their ends (a JUnit suite's timestamp)
 * ends at its start plus the tests' time, not at the upload's time: a week-old report uploaded
 * now is not a week long, on the screens or in a notification.
 */
async function storeRunCounts(client: pg.PoolClient, runId: number, tally?: RunTally) {
  await client.query(
    `UPDATE runs SET
       total = c.total, passed = c.passed, failed = c.failed, pending = c.pending, flaky = c.flaky,
       duration_ms = c.duration_ms,
       started_at = coalesce(c.started_at, runs.started_at),
       finished_at = CASE WHEN runs.state = 'finished'
         THEN coalesce(c.finished_at,
                       c.started_at + CASE WHEN c.duration_ms <= ${LONGEST_RUN_MS}
                                           THEN c.duration_ms * interval '1 millisecond' END,
                       runs.finished_at, now())
         ELSE runs.finished_at END
     FROM (${tally ? TALLIED : COUNTED}) c
     WHERE runs.id = $1`,
    tally ? [runId, ...tally.values()] : [runId],
  );
}
