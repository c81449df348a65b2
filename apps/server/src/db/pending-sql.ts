import { PENDING_MARKER } from "@assay/core";

/**
 * Spec §4's pending rule (a failure whose message contains core's PENDING_MARKER is skipped)
 * as SQL, for the counts that PostgreSQL makes. The pattern is written into the text as a
 * literal, not sent as a parameter: the planner matches a query to the partial index
 * results_failed_time_idx (migration 0010) only when it can see the same constant.
 * pending-sql.test.ts checks that the index's predicate is this one.
 */

/** A LIKE pattern matching text that contains `text` anywhere, as an SQL string literal. */
function containsPattern(text: string): string {
  const escaped = text.replace(/[\\%_]/g, (char) => `\\${char}`).replace(/'/g, "''");
  return `'%${escaped}%'`;
}

const PENDING_LIKE = containsPattern(PENDING_MARKER);

/** The message of a result holds the pending marker (NULL when there is no message). */
export const PENDING_MESSAGE_SQL = `error_message LIKE ${PENDING_LIKE}`;

/** The message of a result does not hold the pending marker (true when there is none). */
export const NOT_PENDING_MESSAGE_SQL = `(error_message IS NULL OR error_message NOT LIKE ${PENDING_LIKE})`;
