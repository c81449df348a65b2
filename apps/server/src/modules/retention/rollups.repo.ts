import { sql } from "kysely";
import type { Db } from "../../db/pool.js";

/**
 * Reads of the roll-ups retention writes before it removes anything (migration 0170), for the
 * screens that count over removed periods: the Dashboard's daily chart, Top Fails and a test's
 * pass rate. Each adds these counts to its own reads of runs and results: the roll-ups hold only
 * what is no longer there, so nothing is counted twice.
 */

export interface RolledUpDay {
  /** YYYY-MM-DD (UTC). */
  date: string;
  runs: number;
  total: number;
  passed: number;
  failed: number;
  unstable: number;
  skipped: number;
}

export interface RolledUpRunsFilter {
  family: "frontend" | "backend";
  executor: string;
  since: Date;
  /** nora_site values (frontend) or env values (backend) that count. */
  targets: readonly string[];
}

/** Removed runs of the Dashboard's chart, summed per day since `since`. */
export async function rolledUpRunDays(db: Db, filter: RolledUpRunsFilter): Promise<RolledUpDay[]> {
  if (filter.targets.length === 0) return [];
  const target = filter.family === "frontend" ? "nora_site" : "env";
  const rows = await db.kysely
    .selectFrom("retention_run_days")
    .select([
      sql<string>`day::text`.as("date"),
      sql<number>`sum(runs)::int`.as("runs"),
      sql<number>`sum(total)::int`.as("total"),
      sql<number>`sum(passed)::int`.as("passed"),
      sql<number>`sum(failed)::int`.as("failed"),
      sql<number>`sum(unstable)::int`.as("unstable"),
      sql<number>`sum(skipped)::int`.as("skipped"),
    ])
    .where("family", "=", filter.family)
    .where("executor", "=", filter.executor)
    .where("day", ">=", sql<string>`(${filter.since}::timestamptz AT TIME ZONE 'UTC')::date`)
    .where(target, "in", [...filter.targets])
    .groupBy("day")
    .orderBy("day")
    .execute();
  return rows;
}

/**
 * Removed failures per test since `months` months ago, as rows (test_id, fail_count) that Top
 * Fails unions with its count over results.
 */
export function rolledUpFailsQuery(db: Db, months: number) {
  return db.kysely
    .selectFrom("retention_test_days")
    .select(["test_id", sql<string>`sum(failed)`.as("fail_count")])
    .where("failed", ">", 0)
    .where("day", ">=", sql<string>`(now() - make_interval(months => ${months}))::date`)
    .groupBy("test_id");
}

export interface RolledUpTestCounts {
  passed: number;
  failed: number;
  skipped: number;
  /** The first and last day with removed results, or null when none were removed. */
  from: string | null;
  to: string | null;
}

/** A test's removed final results, all days together. */
export async function rolledUpTestCounts(db: Db, testId: number): Promise<RolledUpTestCounts> {
  const row = await db.kysely
    .selectFrom("retention_test_days")
    .select([
      sql<number>`coalesce(sum(passed), 0)::int`.as("passed"),
      sql<number>`coalesce(sum(failed), 0)::int`.as("failed"),
      sql<number>`coalesce(sum(skipped), 0)::int`.as("skipped"),
      // A month's row (retention.repo.ts, BUCKET_SQL) keeps its first and last day.
      sql<string | null>`min(coalesce(first_day, day))::text`.as("from"),
      sql<string | null>`max(coalesce(last_day, day))::text`.as("to"),
    ])
    .where("test_id", "=", testId)
    .executeTakeFirstOrThrow();
  return row;
}
