import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";

export interface TokenRow {
  id: number;
  name: string;
  scopes: string[];
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const COLUMNS = ["id", "name", "scopes", "created_at", "last_used_at", "revoked_at"] as const;

export async function insertToken(
  db: Kysely<Database>,
  name: string,
  hash: string,
  scopes: string[],
) {
  return db
    .insertInto("service_tokens")
    .values({ name, token_hash: hash, scopes })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow() as Promise<TokenRow>;
}

export async function listTokens(db: Kysely<Database>): Promise<TokenRow[]> {
  return db.selectFrom("service_tokens").select(COLUMNS).orderBy("name").execute() as Promise<
    TokenRow[]
  >;
}

export async function revokeToken(db: Kysely<Database>, name: string): Promise<boolean> {
  const result = await db
    .updateTable("service_tokens")
    .set({ revoked_at: new Date() })
    .where("name", "=", name)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The live token with this hash, marking it used. */
export async function useToken(db: Kysely<Database>, hash: string): Promise<TokenRow | undefined> {
  return db
    .updateTable("service_tokens")
    .set({ last_used_at: new Date() })
    .where("token_hash", "=", hash)
    .where("revoked_at", "is", null)
    .returning(COLUMNS)
    .executeTakeFirst() as Promise<TokenRow | undefined>;
}
