import type { RawStatus } from "./results.js";

/**
 * Result status rules of spec section 4, in one place for the server and the web app:
 * - skipped: a failure whose message contains 'Pending reason' (or a test the report skipped);
 * - unstable: failed, and the test is in the '@unstable' tag; counted out of failed;
 * - tickets: bug markers in failure messages, upper-cased.
 */
export type DisplayStatus = "passed" | "failed" | "skipped" | "unstable";

export const UNSTABLE_TAG = "@unstable";
/**
 * The text that makes a failure a pending (skipped) result. The server's SQL states the same
 * rule from this constant (apps/server/src/db/pending-sql.ts), and so does migration 0010's
 * index predicate, which a server test compares with it.
 */
export const PENDING_MARKER = "Pending reason";

/** Backend runs have no Unstable box (spec §2): their failures are never unstable. */
export const NO_UNSTABLE: ReadonlySet<number> = new Set();

export interface StatusInput {
  status: RawStatus;
  error_message?: string | null;
  test_id: number;
}

export function isPendingFailure(errorMessage: string | null | undefined): boolean {
  return errorMessage?.includes(PENDING_MARKER) ?? false;
}

/** The reason of a pending test: the text after '==' in its message ("" when there is none). */
export function pendingReason(errorMessage: string | null | undefined): string {
  if (!errorMessage) return "";
  const at = errorMessage.indexOf("==");
  return at < 0 ? "" : errorMessage.slice(at + 2).trim();
}

export function deriveStatus(
  result: StatusInput,
  unstableTestIds: ReadonlySet<number>,
): DisplayStatus {
  if (result.status === "passed") return "passed";
  if (result.status === "skipped" || isPendingFailure(result.error_message)) return "skipped";
  return unstableTestIds.has(result.test_id) ? "unstable" : "failed";
}

export interface StatusCounts {
  total: number;
  passed: number;
  failed: number;
  skipped: number;
  unstable: number;
}

export function countStatuses(
  results: readonly StatusInput[],
  unstableTestIds: ReadonlySet<number>,
): StatusCounts {
  const counts: StatusCounts = { total: 0, passed: 0, failed: 0, skipped: 0, unstable: 0 };
  for (const result of results) {
    counts.total++;
    counts[deriveStatus(result, unstableTestIds)]++;
  }
  return counts;
}

/**
 * Ticket keys in failure messages, matched case-insensitively with the configured pattern
 * (default nxl- followed by digits), upper-cased and without duplicates, in order of appearance.
 */
export function extractTickets(
  messages: readonly (string | null | undefined)[],
  pattern: string,
): string[] {
  const regex = new RegExp(pattern, "gi");
  const seen = new Set<string>();
  for (const message of messages) {
    for (const match of message?.matchAll(regex) ?? []) seen.add(match[0].toUpperCase());
  }
  return [...seen];
}
