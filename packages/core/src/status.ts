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

/** A final failure of some run, as the run lists read them to find its unstable results. */
export interface RunFailure extends StatusInput {
  run_id: number;
}

/**
 * How many results of each run are unstable: its final failures that deriveStatus calls
 * unstable. Every screen and message that counts a run's results (run lists, Dashboard, charts,
 * webhooks) takes this count, then withUnstable, so Unstable is never also counted as Failed.
 */
export function unstableByRun(
  failures: readonly RunFailure[],
  unstableTestIds: ReadonlySet<number>,
): Map<number, number> {
  const byRun = new Map<number, number>();
  for (const failure of failures) {
    if (deriveStatus(failure, unstableTestIds) !== "unstable") continue;
    byRun.set(failure.run_id, (byRun.get(failure.run_id) ?? 0) + 1);
  }
  return byRun;
}

/**
 * Stored counts (failed includes every failure, as ingestion counts them) with the run's unstable
 * results counted out of failed: the spec's rule, in one place.
 */
export function withUnstable<T extends { failed: number }>(
  counts: T,
  unstable: number,
): T & { unstable: number } {
  const counted = Math.min(unstable, counts.failed);
  return { ...counts, failed: counts.failed - counted, unstable: counted };
}

/**
 * The one ticket rule: ticket keys in `text`, matched case-insensitively with the configured
 * pattern (default nxl- followed by digits), upper-cased as the tracker spells them. An empty
 * match is never a ticket.
 */
function* ticketMatches(text: string, pattern: string) {
  for (const match of text.matchAll(new RegExp(pattern, "gi"))) {
    if (match[0] !== "") yield { ticket: match[0].toUpperCase(), at: match.index, match: match[0] };
  }
}

/** Ticket keys in failure messages, without duplicates, in order of appearance. */
export function extractTickets(
  messages: readonly (string | null | undefined)[],
  pattern: string,
): string[] {
  const seen = new Set<string>();
  for (const message of messages) {
    for (const { ticket } of ticketMatches(message ?? "", pattern)) seen.add(ticket);
  }
  return [...seen];
}

/** A piece of a failure message: plain text, or a ticket key to link. */
export type TextPart = { text: string } | { ticket: string };

/** `text` cut at its ticket keys, for the screens to link each (TicketText in the web app). */
export function splitTickets(text: string, pattern: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const { ticket, at, match } of ticketMatches(text, pattern)) {
    if (at > last) parts.push({ text: text.slice(last, at) });
    parts.push({ ticket });
    last = at + match.length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}
