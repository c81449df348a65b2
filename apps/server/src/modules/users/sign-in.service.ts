import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import * as attempts from "./sign-in-attempts.repo.js";
import type { UserRow } from "./users.repo.js";
import { normalizeEmail, verifyPassword } from "./users.service.js";

/**
 * The attempt limit of the embedded provider's login (ASVS 6.3.1): failures are counted per
 * email (guessing one user's password) and per address (trying one password on many users),
 * over a sliding window, in PostgreSQL so that a restart or another server does not reset them.
 */
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;
export const MAX_FAILURES_PER_EMAIL = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;

export type SignInOutcome =
  { kind: "ok"; user: UserRow } | { kind: "wrong" } | { kind: "disabled" } | { kind: "limited" };

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
  const recent = await attempts.countRecent(db, email, input.ip, SIGN_IN_WINDOW_SECONDS);
  if (recent.email > MAX_FAILURES_PER_EMAIL || recent.ip > MAX_FAILURES_PER_ADDRESS) {
    // Refused attempts do not count, so the lock ends a window after the last real failure.
    await attempts.deleteAttempt(db, attemptId);
    return { kind: "limited" };
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
