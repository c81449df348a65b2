import { sql } from "kysely";
import { NOT_PENDING_MESSAGE_SQL } from "../../db/pending-sql.js";
import type { Db } from "../../db/pool.js";
import { runPrepared } from "../../db/prepared.js";
import { namesOfResult } from "../../db/results-sql.js";
import { rolledUpFailsQuery } from "../retention/rollups.repo.js";
import { keptFailsQuery } from "../topfails/topfails.repo.js";

/** Reads across runs: one test's history and the most failing tests. */

export async function testExists(db: Db, testId: number): Promise<boolean> {
  const row = await db.kysely
    .selectFrom("tests")
    .select("id")
    .where("id", "=", testId)
    .executeTakeFirst();
  return row !== undefined;
}

export interface HistoryFilter {
  isNextGen?: boolean;
  noraSite?: string;
  limit: number;
}

/**
 * A test's final results, with the key of their run, in runs the filter keeps. Several ids: a
 * renamed test's, its own and those of its aliases (aliases.service's aliasGroup).
 */
function finalResults(db: Db, testIds: number | readonly number[], filter: HistoryFilter) {
  const ids = typeof testIds === "number" ? [testIds] : testIds;
  let query = db.kysely
    .selectFrom("results")
    .innerJoin("runs", "runs.id", "results.run_id")
    .select([
      "results.id",
      "results.test_id",
      "results.test_run_test_id",
      "results.status",
      "results.error_message",
      "results.start_time",
      "runs.test_run_key",
      "runs.family",
    ])
    .where((eb) =>
      ids.length === 1 ? eb("results.test_id", "=", ids[0]!) : eb("results.test_id", "in", ids),
    )
    .where("results.is_final", "=", sql.lit(true));
  if (filter.isNextGen !== undefined)
    query = query.where("runs.is_next_gen", "=", filter.isNextGen);
  if (filter.noraSite !== undefined) query = query.where("runs.nora_site", "=", filter.noraSite);
  return query;
}

/**
 * Final results of one test, newest first, with the key of their run. Results without a start
 * time come last.
 *
 * "Newest first, NULLs last" is read as two scans of results_latest_final_idx (migration 0042:
 * start_time DESC NULLS LAST, id DESC) that each stop after `limit` rows, dated results then
 * undated ones, instead of reading all the test's results and sorting them. The dated part says
 * NULLS LAST, which changes nothing in its answer, so that the planner sees the index's order.
 */
export async function listTestHistory(
  db: Db,
  testIds: number | readonly number[],
  filter: HistoryFilter,
) {
  // The limit is written into the SQL: a prepared statement's generic plan must know it.
  const limit = sql.lit(filter.limit);
  const dated = finalResults(db, testIds, filter)
    .where("results.start_time", "is not", null)
    .orderBy(sql`results.start_time desc nulls last`)
    .orderBy("results.id", "desc")
    .limit(limit);
  const undated = finalResults(db, testIds, filter)
    .where("results.start_time", "is", null)
    .orderBy("results.id", "desc")
    .limit(limit);
  // Each part in a subquery of its own: a union's parts cannot carry ORDER BY and LIMIT.
  const query = db.kysely
    .selectFrom((eb) =>
      eb
        .selectFrom(dated.as("d"))
        .selectAll()
        .unionAll(eb.selectFrom(undated.as("u")).selectAll())
        .as("h"),
    )
    .selectAll()
    .orderBy(sql`h.start_time desc nulls last`)
    .orderBy("h.id", "desc")
    .limit(limit);
  // Planned once per connection (db/prepared.ts): planning was 4 ms of its 4.5 in the database.
  const rows = await runPrepared(db, query);
  return rows.map((row) => ({ ...row, id: Number(row.id), test_id: Number(row.test_id) }));
}
export type HistoryRow = Awaited<ReturnType<typeof listTestHistory>>[number];

/**
 * Failures per test since `months` months ago, counted from results: rows (test_id, fail_count).
 * A failure with 'Pending reason' is a skipped result (deriveStatus), not counted. Counted on
 * the results_failed_time_idx index alone, whose predicate is these conditions word for word
 * (migration 0010; pending-sql.test.ts checks it).
 */
function countedFails(db: Db, months: number) {
  return (
    db.kysely
      .selectFrom("results")
      .select(["test_id", sql<string>`count(*)`.as("fail_count")])
      .where("is_final", "=", true)
      .where("status", "=", "failed")
      .where(sql.raw<boolean>(NOT_PENDING_MESSAGE_SQL))
      .where("start_time", ">=", sql<Date>`now() - make_interval(months => ${months})`)
      .groupBy("test_id")
      // Failures retention removed are counted from its daily roll-ups.
      .unionAll(rolledUpFailsQuery(db, months))
  );
}

/**
 * Where Top Fails' per-test counts come from: `results`, counted on each call; `kept`, the
 * totals the topfails module keeps, for the tests that can be listed (no rows at all when those
 * cannot be used: the caller counts from results then).
 */
export type TopFailsSource = "results" | "kept";

function perTestFails(db: Db, months: number, limit: number, source: TopFailsSource) {
  if (source === "results") return countedFails(db, months);
  // The same rows' type as counted from results: (test_id, fail_count as text).
  return db.kysely
    .selectFrom(keptFailsQuery(db, months, limit).as("kept"))
    .select(["kept.test_id", "kept.fail_count"]) as unknown as ReturnType<typeof countedFails>;
}

/**
 * Tests with the most final failures since `months` months ago, most first, ties by test id;
 * titles are joined for the top rows only. A renamed test's failures count once under the test
 * it is now: the per-test counts are summed through the aliases' small canonical map
 * (test_alias_canonical, issue 35).
 */
export function topFailsQuery(
  db: Db,
  months: number,
  limit: number,
  source: TopFailsSource = "results",
) {
  return (
    db.kysely
      .selectFrom((eb) =>
        eb
          .selectFrom(perTestFails(db, months, limit, source).as("per_test"))
          .leftJoin("test_alias_canonical as ac", "ac.test_id", "per_test.test_id")
          .select([
            sql<number>`coalesce(ac.canonical_id, per_test.test_id)`.as("test_id"),
            sql<string>`sum(per_test.fail_count)`.as("fail_count"),
          ])
          .groupBy(sql`coalesce(ac.canonical_id, per_test.test_id)`)
          .orderBy("fail_count", "desc")
          .orderBy("test_id")
          .limit(limit)
          .as("fails"),
      )
      .innerJoin("tests", "tests.id", "fails.test_id")
      // The suites of each top test's latest failure: one probe per listed row, never per result.
      // Its id first, from results_latest_final_idx alone (status is in the index), then its row
      // by id: reading the suites of every failure of the test to keep the latest one fetched a
      // heap page per failure, ~100 ms a test on a year's months, cold (performance.md).
      .leftJoinLateral(
        (eb) =>
          eb
            .selectFrom("results as r")
            .select(sql<number>`max(r.id)`.as("id"))
            .whereRef("r.test_id", "=", "fails.test_id")
            .where("r.is_final", "=", true)
            .where("r.status", "=", "failed")
            .as("latest"),
        (join) => join.onTrue(),
      )
      .leftJoinLateral(
        (eb) =>
          eb
            .selectFrom("results as r")
            .select(namesOfResult("r", "suite_path").as("suite_path"))
            .whereRef("r.id", "=", "latest.id")
            .limit(1)
            .as("last"),
        (join) => join.onTrue(),
      )
      .select([
        "fails.test_id",
        "tests.title",
        "tests.file",
        "tests.family",
        "last.suite_path",
        "fails.fail_count",
      ])
      .orderBy("fails.fail_count", "desc")
      .orderBy("fails.test_id")
  );
}

/** The rows of topFailsQuery. */
export async function listTopFails(
  db: Db,
  months: number,
  limit: number,
  source: TopFailsSource = "results",
) {
  const query = topFailsQuery(db, months, limit, source);
  const rows =
    source === "results"
      ? await query.execute()
      : await db.kysely.transaction().execute(async (trx) => {
          // The planner's cost for the kept read's parts (each month's index, estimated without
          // the values the read starts from) passes jit_above_cost: compiling took 1.1 s of its
          // 1.7 s on a year's store, for a read of milliseconds (performance.md).
          await sql`SET LOCAL jit = off`.execute(trx);
          return (await trx.executeQuery(query.compile())).rows;
        });
  return rows.map((row) => ({
    id: Number(row.test_id),
    title: row.title,
    suite_path: row.suite_path ?? [],
    file: row.file,
    family: row.family,
    fail_count: Number(row.fail_count),
  }));
}
