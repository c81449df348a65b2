import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import * as models from "./oidc-models.repo.js";

/**
 * Ends everything the embedded provider holds for a user: sessions, grants, codes and refresh
 * tokens. Used when a user is disabled or their password is reset. Access tokens already issued
 * are JWTs and stay valid until they expire (10 minutes); refreshing them fails.
 */
export async function endSessionsOf(db: Kysely<Database>, userId: number): Promise<number> {
  return models.destroyByAccountId(db, String(userId));
}

/** Deletes the provider's expired sessions, codes and tokens; run now and then. */
export async function deleteExpiredState(db: Kysely<Database>): Promise<number> {
  return models.deleteExpired(db);
}
