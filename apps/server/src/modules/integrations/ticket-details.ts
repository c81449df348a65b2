import type { TicketDetail } from "@assay/core";
import type { Db } from "../../db/pool.js";
import { badRequest } from "../../errors.js";
import { fromTracker, notConfigured, type Trackers } from "./integrations.service.js";
import * as repo from "./integrations.repo.js";

/** How often, at most, a lookup also prunes the stale cache entries (per server). */
const PRUNE_EVERY_MS = 60_000;

export interface TicketLookups {
  db: Db;
  trackers: Trackers;
  /** The catalogue's ticketPattern (case-insensitive): only keys it matches are looked up. */
  ticketPattern: string;
}

/** The keys that are no ticket by the catalogue's pattern refused with a 400 naming some. */
function checkKeys(keys: readonly string[], pattern: string): void {
  const ticket = new RegExp(`^(?:${pattern})$`, "i");
  const wrong = keys.filter((key) => !ticket.test(key));
  if (wrong.length === 0) return;
  const shown =
    wrong.slice(0, 5).join(", ") + (wrong.length > 5 ? ` and ${wrong.length - 5} more` : "");
  throw badRequest(
    `${shown}: not a ticket key of this Assay (catalog.ticketPattern ${pattern}); send only the ticket keys its screens show.`,
  );
}

/**
 * The details of `keys` (already upper-cased by the schema): fresh cache entries first, the rest
 * in one batched Jira lookup (100 keys a call), whose answers, found or not, are cached until the
 * TTL. Keys must look like tickets, and entries past the TTL are removed (issue 33: made-up keys
 * grew jira_tickets without bound), so the table holds at most a TTL's worth of lookups.
 */
export function ticketLookups({ db, trackers, ticketPattern }: TicketLookups) {
  let prunedAt = 0;
  return async function ticketDetails(
    keys: readonly string[],
    now = new Date(),
  ): Promise<TicketDetail[]> {
    const jira = trackers.jira;
    if (!jira) throw notConfigured("jira");
    checkKeys(keys, ticketPattern);
    const unique = [...new Set(keys)];
    const staleAt = new Date(now.getTime() - trackers.config.ticketTtlMs);
    const cached = await repo.freshTickets(db, unique, staleAt);
    const known = new Map(cached.map((ticket) => [ticket.key, ticket]));
    const missing = unique.filter((key) => !known.has(key));
    if (missing.length > 0) {
      const issues = await fromTracker(() => jira.issuesByKey(missing, ["summary", "status"]));
      const byKey = new Map(issues.map((issue) => [issue.key.toUpperCase(), issue]));
      const looked = missing.map((key): repo.CachedTicket => {
        const issue = byKey.get(key);
        return {
          key,
          found: issue !== undefined,
          summary: issue?.fields.summary ?? "",
          status: issue?.fields.status?.name ?? "",
        };
      });
      await repo.storeTickets(db, looked, now);
      for (const ticket of looked) known.set(ticket.key, ticket);
      if (now.getTime() - prunedAt >= PRUNE_EVERY_MS) {
        prunedAt = now.getTime();
        await repo.pruneTickets(db, staleAt);
      }
    }
    return unique.flatMap((key) => {
      const ticket = known.get(key);
      return ticket?.found
        ? [{ key, fields: { summary: ticket.summary, status: { name: ticket.status } } }]
        : [];
    });
  };
}
