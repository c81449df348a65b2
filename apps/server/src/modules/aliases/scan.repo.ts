import type pg from "pg";
import { fileOf, runAtOfParam, stepsOf, suitePathOf } from "../../db/results-sql.js";
import type { Queryable } from "./aliases.repo.js";

/**
 * What aliases read and write about the tests an upload registered (stable keys inside its
 * transaction, suggestions in a job after it): `newIds` as ingest counted them, of which those
 * created by the upload (tests.created_at = its transaction's time; an explicit id may have been
 * there). Their results are found by test id, so the cost follows the new tests, not the run.
 */

/**
 * Result properties that carry a test's stable key, first present wins: Allure's ALLURE_ID
 * label and historyId (allure-result.ts keeps both), and the id properties JUnit reports carry
 * (junit-case.ts keeps a testcase's properties). Constants: inlined into the SQL below.
 */
export const STABLE_KEY_PROPERTIES = [
  "ALLURE_ID",
  "historyId",
  "test_id",
  "testId",
  "test_key",
  "id",
] as const;

const STABLE_KEY_SQL = `CASE ${STABLE_KEY_PROPERTIES.map(
  (name) => `WHEN r.properties ? '${name}' THEN '${name}:' || (r.properties ->> '${name}')`,
).join(" ")} END`;

export interface KeyedTest {
  test_id: number;
  family: string;
  stable_key: string;
  /** The test the key was first seen with, when it is another one. */
  known_id: number | null;
}

/**
 * The new tests of the run that carry a stable key no other test of the run carries (a key on a
 * whole suite names no single test), with the test that key was seen with before, if any.
 */
export async function newKeyedTests(
  client: pg.PoolClient,
  runId: number,
  newIds: readonly number[],
): Promise<KeyedTest[]> {
  const { rows } = await client.query<KeyedTest>(
    `WITH fresh AS (
       SELECT DISTINCT r.test_id, t.family, ${STABLE_KEY_SQL} AS stable_key
       FROM results r JOIN tests t ON t.id = r.test_id AND t.created_at = now()
       WHERE r.test_id = ANY($2::bigint[]) AND r.run_id = $1 AND r.run_at = ${runAtOfParam(1)}
         AND r.is_final AND r.properties IS NOT NULL
     ), keyed AS (
       SELECT *, count(*) OVER (PARTITION BY family, stable_key) AS n
       FROM fresh WHERE stable_key IS NOT NULL
     )
     SELECT k.test_id::float8 AS test_id, k.family, k.stable_key,
            s.test_id::float8 AS known_id
     FROM keyed k LEFT JOIN test_stable_keys s
       ON s.family = k.family AND s.stable_key = k.stable_key AND s.test_id <> k.test_id
     WHERE k.n = 1`,
    [runId, newIds],
  );
  return rows;
}

/** Records each key with its test; a key seen before now names the new test. */
export async function saveStableKeys(
  client: pg.PoolClient,
  keys: readonly Pick<KeyedTest, "family" | "stable_key" | "test_id">[],
): Promise<void> {
  if (keys.length === 0) return;
  await client.query(
    `INSERT INTO test_stable_keys (family, stable_key, test_id)
     SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[])
     ON CONFLICT (family, stable_key) DO UPDATE SET test_id = excluded.test_id`,
    [keys.map((k) => k.family), keys.map((k) => k.stable_key), keys.map((k) => k.test_id)],
  );
}

/** The upload transaction's time: the `created_at` of the tests it registers. */
export async function transactionTime(client: pg.PoolClient): Promise<string> {
  const { rows } = await client.query<{ now: string }>("SELECT now()::text AS now");
  return rows[0]!.now;
}

/** Which of a run's tests are new: those registered by the transaction at `createdAt`. */
export interface NewTests {
  createdAt: string;
  /** Their ids when the upload kept them all (probed by test id), else null (the run is read). */
  ids: readonly number[] | null;
}

/**
 * Suggests renames: a final result of the previous run of the same job (family, executor,
 * branch) whose test is not in this run, and a new test of this run with the same file and the
 * same steps (by their words; without steps, the same suite path). Only one-to-one pairs are
 * suggested, and none for a test already aliased either way. Returns how many were added.
 * Runs after the upload committed (aliases.jobs.ts): a pair suggested before (or decided) is
 * left as it is, so running it twice, or on two servers at once, adds nothing.
 */
export async function suggestRenames(
  db: Queryable,
  runId: number,
  fresh: NewTests,
): Promise<number> {
  const signature = (r: string) =>
    `CASE WHEN jsonb_array_length(${stepsOf(r)}) = 0
       THEN 'suite:' || array_to_string(${suitePathOf(r)}, '/')
       ELSE jsonb_path_query_array(${stepsOf(r)}, '$[*].action')::text END`;
  const { rowCount } = await db.query(
    `WITH cur AS (SELECT id, family, executor, branch FROM runs WHERE id = $1),
     prev AS (
       SELECT p.id, p.created_at FROM runs p, cur
       WHERE p.family = cur.family AND p.executor IS NOT DISTINCT FROM cur.executor
         AND p.branch IS NOT DISTINCT FROM cur.branch AND p.id < cur.id
       ORDER BY p.id DESC LIMIT 1
     ), fresh AS (
       SELECT DISTINCT r.test_id, ${fileOf("r")} AS file, ${signature("r")} AS sig
       FROM results r JOIN tests t ON t.id = r.test_id AND t.created_at = $2::timestamptz
       WHERE ($3::bigint[] IS NULL OR r.test_id = ANY($3::bigint[])) AND r.run_id = $1
         AND r.run_at = ${runAtOfParam(1)}
         AND r.is_final AND ${fileOf("r")} IS NOT NULL
         AND NOT EXISTS (SELECT FROM test_aliases a WHERE a.canonical_id = r.test_id
                         AND a.undone_at IS NULL)
     ), gone AS (
       SELECT DISTINCT p.test_id, ${fileOf("p")} AS file, ${signature("p")} AS sig
       FROM results p JOIN prev ON p.run_id = prev.id AND p.run_at = prev.created_at
       WHERE p.is_final AND ${fileOf("p")} IN (SELECT file FROM fresh)
         AND NOT EXISTS (SELECT FROM results c WHERE c.run_id = $1 AND c.test_id = p.test_id
                         AND c.run_at = ${runAtOfParam(1)})
         AND NOT EXISTS (SELECT FROM test_aliases a WHERE a.test_id = p.test_id
                         AND a.undone_at IS NULL)
     ), sides AS (
       -- How many gone and new tests each file and signature has, counted rather than joined:
       -- a suite renamed whole (its 25 tests a file) made 625 rows a file, 2.5M for 100k tests.
       SELECT file, sig, count(*) FILTER (WHERE is_old) AS olds,
              count(*) FILTER (WHERE NOT is_old) AS news
       FROM (SELECT file, sig, true AS is_old FROM gone
             UNION ALL SELECT file, sig, false FROM fresh) s
       GROUP BY file, sig
     ), old_matches AS (
       SELECT g.test_id, sum(s.news) AS n FROM gone g JOIN sides s USING (file, sig)
       GROUP BY g.test_id
     ), new_matches AS (
       SELECT f.test_id, sum(s.olds) AS n FROM fresh f JOIN sides s USING (file, sig)
       GROUP BY f.test_id
     ), pairs AS (
       -- one-to-one: the only match of each side, whatever their other signatures
       SELECT g.test_id AS old_id, f.test_id AS new_id
       FROM sides s JOIN gone g USING (file, sig) JOIN fresh f USING (file, sig)
       JOIN old_matches o ON o.test_id = g.test_id AND o.n = 1
       JOIN new_matches n ON n.test_id = f.test_id AND n.n = 1
       WHERE s.olds = 1 AND s.news = 1
     )
     INSERT INTO test_alias_suggestions (test_id, canonical_id, run_id)
     SELECT old_id, new_id, $1 FROM pairs
     ON CONFLICT (test_id, canonical_id) DO NOTHING`,
    [runId, fresh.createdAt, fresh.ids],
  );
  return rowCount ?? 0;
}
