import { sql, type RawBuilder } from "kysely";

/*
 * results is partitioned by month of run_at, its run's created_at (migration 0191). A read of
 * one run's results states its run's run_at as well as its run_id, so that PostgreSQL reads only
 * that run's partition (the others show "never executed" in the plan) instead of probing the
 * index of every month. The value comes from runs in the same statement: it is known once the
 * statement starts, which is when the partitions are chosen.
 */

/** The run_at of run `runId`, for kysely queries: `.where("results.run_at", "=", runAtOf(id))`. */
export function runAtOf(runId: number): RawBuilder<Date> {
  return sql<Date>`(SELECT created_at FROM runs WHERE id = ${runId})`;
}

/** The same for SQL text whose parameter `$n` is the run's id. */
export function runAtOfParam(n: number): string {
  return `(SELECT created_at FROM runs WHERE id = $${n})`;
}
