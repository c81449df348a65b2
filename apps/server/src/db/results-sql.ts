import { sql, type RawBuilder } from "kysely";
import type { StepRow } from "./schema.js";

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

/*
 * Long texts of results (steps) are stored once a month in result_texts, keyed by their hash
 * (migration 0216): a result refers to its text by `steps_ref` or `before_steps_ref`. Rows stored
 * before hold the text inline (json_steps, json_before_steps) and no ref; reads take the ref's
 * text, else the inline one. The lookup states the month (that of the result's run_at), so that
 * it probes one month's index.
 */

/** SQL text of the text `ref` (a column of `results` aliased `alias`) points at, or null. */
export function textOfRef(alias: string, ref: string): string {
  return `CASE WHEN ${alias}.${ref} IS NOT NULL THEN (SELECT body FROM result_texts
     WHERE hash = ${alias}.${ref} AND month = date_trunc('month', ${alias}.run_at, 'UTC')) END`;
}

/** SQL text of a result's steps (or before steps) as jsonb: [] when it has none. */
export function stepsOf(alias: string, before = false): string {
  const ref = before ? "before_steps_ref" : "steps_ref";
  const inline = before ? "json_before_steps" : "json_steps";
  return `coalesce((${textOfRef(alias, ref)})::jsonb, ${alias}.${inline}, '[]'::jsonb)`;
}

/** SQL text of a result's error stack (migration 0217: stack_ref, else error_stack). */
export function stackOf(alias: string): string {
  return `coalesce(${textOfRef(alias, "stack_ref")}, ${alias}.error_stack)`;
}

/** SQL text of a result's console log (log_ref, else console_log). */
export function logOf(alias: string): string {
  return `coalesce(${textOfRef(alias, "log_ref")}, ${alias}.console_log)`;
}

/** For kysely selects: `.select(textOfResult("results", "stack").as("error_stack"))`. */
export function textOfResult(alias: string, text: "stack" | "log"): RawBuilder<string | null> {
  return sql<string | null>`${sql.raw(text === "stack" ? stackOf(alias) : logOf(alias))}`;
}

/** The same for kysely selects: `.select(stepsOfResult("results").as("json_steps"))`. */
export function stepsOfResult(alias: string, before = false): RawBuilder<StepRow[]> {
  return sql<StepRow[]>`${sql.raw(stepsOf(alias, before))}`;
}

/*
 * A result whose suite path, file and name are its test's holds NULL in all three (migration
 * 0221): `name IS NULL` means "the test's", whose values are in `tests` (first registered, never
 * changed). Rows stored before, and results that differ from their test, hold their own. The
 * test is looked up only for a NULL row (a probe of tests_pkey).
 */

/** SQL text of a result's name (results aliased `alias`). */
export function nameOf(alias: string): string {
  return `coalesce(${alias}.name, (SELECT name FROM tests WHERE id = ${alias}.test_id))`;
}

/** SQL text of a result's suite path (text[]). */
export function suitePathOf(alias: string): string {
  return testsOwn(alias, "suite_path");
}

/** SQL text of a result's file (null when it has none). */
export function fileOf(alias: string): string {
  return testsOwn(alias, "file");
}

function testsOwn(alias: string, column: "suite_path" | "file"): string {
  return `CASE WHEN ${alias}.name IS NULL
    THEN (SELECT ${column} FROM tests WHERE id = ${alias}.test_id) ELSE ${alias}.${column} END`;
}

/** For kysely selects: `.select(namesOfResult("results", "name").as("name"))`. */
export function namesOfResult<C extends "name" | "suite_path" | "file">(
  alias: string,
  column: C,
): RawBuilder<{ name: string; suite_path: string[]; file: string | null }[C]> {
  const of = { name: nameOf, suite_path: suitePathOf, file: fileOf }[column];
  return sql`${sql.raw(of(alias))}`;
}

/*
 * A result's run facts (site, version, commit, browser, platform, executor, branch, base URL) are
 * stored once per distinct tuple in result_facts (migration 0222): a row written since holds the
 * tuple's id in facts_id and NULL in the eight columns; a row written before holds its own and
 * facts_id NULL. Reads take the row's when facts_id is NULL, else the tuple's.
 */

/** The columns of results whose values a row written since migration 0222 leaves to result_facts. */
export const FACT_COLUMNS = [
  "nora_site",
  "version",
  "commit_hash",
  "chrome_version",
  "platform",
  "executor",
  "branch",
  "baseurl",
] as const;
export type FactColumn = (typeof FACT_COLUMNS)[number];

/**
 * SQL text of a result's fact `column` (results aliased `alias`): a probe of result_facts' key
 * for a row that has a tuple. Reads of many rows join the tuples instead (factsJoin).
 */
export function factOf(alias: string, column: FactColumn): string {
  return `CASE WHEN ${alias}.facts_id IS NULL THEN ${alias}.${column}
    ELSE (SELECT ${column} FROM result_facts WHERE id = ${alias}.facts_id) END`;
}

/**
 * SQL text: result_facts joined (as `facts`) to the results aliased `alias`, for reads of a run's
 * rows: one hash of the few tuples instead of a probe per row and column. Read with factIn.
 */
export function factsJoin(alias: string): string {
  return `LEFT JOIN result_facts facts ON facts.id = ${alias}.facts_id`;
}

/** SQL text of a result's fact `column` where the query joined its tuple (factsJoin). */
export function factIn(alias: string, column: FactColumn): string {
  return `CASE WHEN ${alias}.facts_id IS NULL THEN ${alias}.${column} ELSE facts.${column} END`;
}

/** For kysely selects that joined `result_facts as facts` on facts_id: factIn per column. */
export function factsOfResult<C extends FactColumn>(alias: string, columns: readonly C[]) {
  return columns.map((column) => sql<string | null>`${sql.raw(factIn(alias, column))}`.as(column));
}

/** For kysely selects of one result: each fact as its own column, probed (factOf). */
export function everyFactOfResult(alias: string) {
  return FACT_COLUMNS.map((column) =>
    sql<string | null>`${sql.raw(factOf(alias, column))}`.as(column),
  );
}

/**
 * SQL text of a tuple's key (result_facts.key): the first 128 bits of the SHA-256 of its values'
 * JSON array, NULLs included, so that two tuples differing only by a NULL and '' are two.
 * `values`: SQL texts of the eight values, in FACT_COLUMNS' order.
 */
export function factsKey(values: readonly string[]): string {
  return sha128Of(`jsonb_build_array(${values.join(", ")})::text`);
}

/** SQL text of the first 128 bits of the SHA-256 of SQL text `text`, as a uuid. */
export function sha128Of(text: string): string {
  return `encode(substr(sha256(convert_to(${text}, 'UTF8')), 1, 16), 'hex')::uuid`;
}

/** SQL: whether a result (of `results`, unaliased) has steps, inline or by ref. */
export const HAS_STEPS = `(steps_ref IS NOT NULL OR before_steps_ref IS NOT NULL
  OR json_steps <> '[]'::jsonb OR json_before_steps <> '[]'::jsonb)`;

/**
 * SQL: the bytes of a result's row that its steps take (inline texts and refs), which emptying
 * them frees; texts in result_texts stay until their month is dropped (other results may share
 * them).
 */
export const STEPS_BYTES = `(coalesce(pg_column_size(json_steps), 0)
  + coalesce(pg_column_size(json_before_steps), 0) + coalesce(pg_column_size(steps_ref), 0)
  + coalesce(pg_column_size(before_steps_ref), 0))`;

/** The partition of result_texts holding the texts of results' partition `name`, if a month's. */
export function textsPartitionOf(name: string): string | null {
  const month = /^test_results_p(\d{6})$/.exec(name)?.[1];
  return month === undefined ? null : `result_texts_p${month}`;
}

/** The columns of results that refer to result_texts. */
export const TEXT_REFS = ["steps_ref", "before_steps_ref", "stack_ref", "log_ref"] as const;

/**
 * SQL: the join condition of result_texts `t` to the texts result `r` refers to, for copying
 * them to another month when results move there (the demo dates its runs in the past).
 */
export function textsOfResult(r: string, t: string): string {
  const refs = TEXT_REFS.map((ref) => `${r}.${ref}`).join(", ");
  return `${t}.hash IN (${refs}) AND ${t}.month = date_trunc('month', ${r}.run_at, 'UTC')`;
}
