import type { Principal } from "./access.js";

/**
 * Who may see people's email addresses in lists (builds, schedules, data validation runs): a
 * signed-in user. Signed-out readers (public read mode) and service tokens see names only, so a
 * public instance does not publish its staff's addresses.
 */
export function seesEmails(principal: Principal | undefined): boolean {
  return principal?.kind === "user";
}

/** A build payload without its email-list fields (translationReportToEmail), for readers who see names only. */
export function withoutEmails(payload: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(payload).filter(([field]) => !/email/i.test(field)));
}
