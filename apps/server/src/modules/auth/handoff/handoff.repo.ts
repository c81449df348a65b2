import type { Kysely } from "kysely";
import type { Database } from "../../../db/schema.js";

/** SQL of sign_in_handoffs (migration 0135); this module owns the table. */

export interface NewHandoff {
  code_hash: Buffer;
  host: string;
  browser_hash: Buffer;
  user_id: number;
  tokens_encrypted: Buffer;
  return_to: string;
  expires_at: Date;
}

export async function insertHandoff(db: Kysely<Database>, row: NewHandoff): Promise<void> {
  await db.insertInto("sign_in_handoffs").values(row).execute();
}

/** Drops codes made before `before`: used or expired, they are kept only a little while. */
export async function deleteHandoffsBefore(db: Kysely<Database>, before: Date): Promise<void> {
  await db.deleteFrom("sign_in_handoffs").where("created_at", "<", before).execute();
}

export interface TakenHandoff {
  host: string;
  browser_hash: Buffer;
  user_id: number;
  tokens_encrypted: Buffer | null;
  return_to: string;
  expires_at: Date;
  /** When it had been used before this take; null on the first. */
  used_at: Date | null;
}

/**
 * The code's row as it was, marking it used and wiping its tokens in the same transaction. The
 * row lock makes two requests with one code take turns: only the first sees used_at null.
 */
export async function takeHandoff(
  db: Kysely<Database>,
  codeHash: Buffer,
): Promise<TakenHandoff | undefined> {
  return db.transaction().execute(async (tx) => {
    const row = await tx
      .selectFrom("sign_in_handoffs")
      .select([
        "host",
        "browser_hash",
        "user_id",
        "tokens_encrypted",
        "return_to",
        "expires_at",
        "used_at",
      ])
      .where("code_hash", "=", codeHash)
      .forUpdate()
      .executeTakeFirst();
    if (!row) return undefined;
    await tx
      .updateTable("sign_in_handoffs")
      .set({ used_at: row.used_at ?? new Date(), tokens_encrypted: null })
      .where("code_hash", "=", codeHash)
      .execute();
    return row;
  });
}
