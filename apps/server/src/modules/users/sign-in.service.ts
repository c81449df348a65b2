import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import * as attempts from "./sign-in-attempts.repo.js";
import type { UserRow } from "./users.repo.js";
import { normalizeEmail, verifyPassword } from "./users.service.js";

/**
 * The attempt limit of the embedded provider's login (ASVS 6.3.1), over a sliding window, in
 * PostgreSQL so that a restart or another server does not reset it: an address that fails one
 * email 5 times is locked out of it, an address that fails 20 times is locked out of every
 * email. An email's failures from every address only slow it down, a delay that doubles with
 * each failure: a lock there would let anyone lock a named account out (issue 33).
 */
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;
export const MAX_FAILURES_PER_EMAIL = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;
/** The longest an email's failures make the next attempt wait. */
export const MAX_EMAIL_DELAY_SECONDS = 60;

export type SignInOutcome =
  | { kind: "ok"; user: UserRow }
  | { kind: "wrong" }
  | { kind: "disabled" }
  | { kind: "limited" }
  | { kind: "slowed"; retryAfterSeconds: number };

/** How long after its latest failure an email with `failures` in the window must wait. */
export function emailDelaySeconds(failures: number): number {
  if (failures < MAX_FAILURES_PER_EMAIL) return 0;
  return Math.min(MAX_EMAIL_DELAY_SECONDS, 2 ** (failures - MAX_FAILURES_PER_EMAIL));
}

/**
 * Checks an email and password against the attempt limit and the accounts. The attempt is
 * recorded before the password is checked, so that parallel guesses all count: at most the
 * limit's number of passwords are ever tried in a window.
 */
export async function signIn(
  db: Kysely<Database>,
  input: { email: string; password: string; ip: string },
): Promise<SignInOutcome> {
  const email = normalizeEmail(input.email);
  const attemptId = await attempts.insertAttempt(db, email, input.ip);
  const recent = await attempts.countRecent(db, email, input.ip, SIGN_IN_WINDOW_SECONDS, attemptId);
  // Counts include this attempt; refused attempts do not count, so a lock ends a window after
  // the last real failure.
  if (recent.pair > MAX_FAILURES_PER_EMAIL || recent.ip > MAX_FAILURES_PER_ADDRESS) {
    await attempts.deleteAttempt(db, attemptId);
    return { kind: "limited" };
  }
  const wait = emailDelaySeconds(recent.email - 1) - (recent.sinceLastEmail ?? Infinity);
  if (wait > 0) {
    await attempts.deleteAttempt(db, attemptId);
    return { kind: "slowed", retryAfterSeconds: Math.ceil(wait) };
  }
  const user = await verifyPassword(db, email, input.password);
  if (!user) return { kind: "wrong" };
  if (user.disabled_at) return { kind: "disabled" };
  await attempts.deleteForEmail(db, email);
  return { kind: "ok", user };
}

/** Deletes attempts older than the window; run now and then. */
export async function forgetOldAttempts(db: Kysely<Database>): Promise<number> {
  return attempts.deleteOlderThan(db, SIGN_IN_WINDOW_SECONDS);
}
