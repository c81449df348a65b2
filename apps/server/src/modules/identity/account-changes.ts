import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { markDisabled, setGeneratedPassword, type UserRow } from "../users/users.service.js";
import { endSessionsOf } from "./identity.service.js";

/*
 * Changes to a user that must also end what the embedded provider holds for them. They live here,
 * above the users module, so that users never imports identity (identity reads users to sign in).
 */

/** Disables a user: they cannot sign in again, and their sessions at the provider end. */
export async function disableUser(db: Kysely<Database>, email: string): Promise<UserRow> {
  const disabled = await markDisabled(db, email);
  await endSessionsOf(db, disabled.id);
  return disabled;
}

/**
 * Gives a user a new generated password, returned this once; their sessions at the provider end
 * and their failed attempts are forgotten.
 */
export async function resetPassword(
  db: Kysely<Database>,
  email: string,
): Promise<{ user: UserRow; password: string }> {
  const reset = await setGeneratedPassword(db, email);
  await endSessionsOf(db, reset.user.id);
  return reset;
}
