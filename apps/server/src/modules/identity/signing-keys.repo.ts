import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";

export interface SigningKeyRow {
  kid: string;
  alg: string;
  jwk_encrypted: Buffer;
}

export async function listSigningKeys(db: Kysely<Database>): Promise<SigningKeyRow[]> {
  return (
    db
      .selectFrom("oidc_signing_keys")
      .select(["kid", "alg", "jwk_encrypted"])
      // Newest first: the provider signs with the first key of each algorithm.
      .orderBy("created_at", "desc")
      .orderBy("kid")
      .execute()
  );
}

/**
 * Runs `fn` with the key table locked against other servers, so that servers starting together
 * on an empty database agree on one set of keys.
 */
export async function withSigningKeysLock<T>(
  db: Kysely<Database>,
  fn: (trx: Kysely<Database>) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtext('assay.oidc-signing-keys'))`.execute(trx);
    return fn(trx);
  });
}

export async function insertSigningKeys(
  db: Kysely<Database>,
  rows: SigningKeyRow[],
): Promise<void> {
  if (rows.length > 0) await db.insertInto("oidc_signing_keys").values(rows).execute();
}
